package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.keys.Keys;
import io.duetdb.proto.kv.ReplicaRead;

/**
 * A planned read of one table: one snapshot timestamp for every partition (taken from placement when the scan is
 * built, or the table's AS OF timestamp), protected from garbage collection for the snapshot lease; one partition
 * per region, preferring the hosts that hold it; the column learners when the table has a columnar replica on every
 * region and the read engines allow them, else the row store's leaders.
 */
final class DuetScan implements Scan, Batch, SupportsReportStatistics {
    private static final Logger LOG = LoggerFactory.getLogger(DuetScan.class);

    private final String name;
    private final ConnectorOptions options;
    private final StructType readSchema;
    private final ScanPlan plan;
    private final long snapshotTs;
    private final List<RegionRanges.RegionRange> regions;
    private final ReplicaRead replica;
    private final Optional<Long> rowCount;

    DuetScan(String name, TableInfo table, ConnectorOptions options, long readTs, StructType readSchema, ScanPlan plan) {
        this.name = requireNonNull(name, "name is null");
        this.options = requireNonNull(options, "options is null");
        this.readSchema = requireNonNull(readSchema, "readSchema is null");
        this.plan = requireNonNull(plan, "plan is null");
        ClusterConnections.Connection connection = ClusterConnections.of(options);
        this.snapshotTs = readTs != 0 ? readTs : connection.placement().getTimestamp().packed();
        connection.placement().updateServiceSafePoint("spark-scan-" + UUID.randomUUID(), snapshotTs,
                options.snapshotLeaseSeconds());
        this.regions = RegionRanges.of(connection.placement(), Keys.recordPrefix(table.id()), Keys.recordEnd(table.id()));
        this.replica = engine(table);
        this.rowCount = new CatalogReader(connection.transactions()).analyzedRowCount(table.id());
        LOG.info("scan of {} planned: {} regions from {} at snapshot {}", name, regions.size(), engineName(), snapshotTs);
    }

    private ReplicaRead engine(TableInfo table) {
        boolean learnersAllowed = options.readEngines().contains(ConnectorOptions.ReadEngine.TIFLASH);
        boolean learnersCover = table.columnarReplicas() > 0
                && regions.stream().allMatch(region -> !region.learnerHosts().isEmpty());
        if (learnersAllowed && learnersCover) {
            return ReplicaRead.LEARNER;
        }
        if (options.readEngines().contains(ConnectorOptions.ReadEngine.TIKV)) {
            return ReplicaRead.LEADER;
        }
        throw new IllegalStateException("cannot read " + name + ": " + ConnectorOptions.READ_ENGINES
                + " allows tiflash only, and " + (table.columnarReplicas() == 0 ? "the table has no columnar replica"
                        + " (ALTER TABLE ... SET TIFLASH REPLICA 1)" : "its columnar replica does not cover every region yet"));
    }

    private String engineName() {
        return replica == ReplicaRead.LEARNER ? "tiflash" : "tikv";
    }

    @Override
    public StructType readSchema() {
        return readSchema;
    }

    @Override
    public String description() {
        return "DuetScan " + name + " [engine=" + engineName() + ", regions=" + regions.size() + ", snapshot=" + snapshotTs
                + (plan.aggregated() ? ", pushedAggregate=" + plan.columns() : ", columns=" + plan.columns())
                + ", pushedFilters=" + plan.filters()
                + (plan.limit() >= 0 ? ", pushedLimit=" + plan.limit() : "") + "]";
    }

    /**
     * The table's rows as its last ANALYZE counted them (nothing when never analyzed), and their bytes as Spark
     * holds the columns read: what Spark's planner weighs joins with (a small side is broadcast).
     */
    @Override
    public Statistics estimateStatistics() {
        OptionalLong rows = rowCount.map(OptionalLong::of).orElse(OptionalLong.empty());
        long rowBytes = 0;
        for (StructField field : readSchema.fields()) {
            rowBytes += field.dataType().defaultSize();
        }
        OptionalLong bytes = rows.isPresent() ? OptionalLong.of(rows.getAsLong() * Math.max(rowBytes, 1)) : OptionalLong.empty();
        return new Statistics() {
            @Override
            public OptionalLong sizeInBytes() {
                return bytes;
            }

            @Override
            public OptionalLong numRows() {
                return rows;
            }
        };
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        InputPartition[] partitions = new InputPartition[regions.size()];
        for (int i = 0; i < partitions.length; i++) {
            RegionRanges.RegionRange region = regions.get(i);
            List<String> hosts = replica == ReplicaRead.LEARNER ? region.learnerHosts() : region.leaderHosts();
            partitions[i] = new RegionPartition(region.regionId(), region.start(), region.end(), hosts.toArray(String[]::new));
        }
        return partitions;
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new RegionReaderFactory(options, plan.plan(), snapshotTs, replica, readSchema, plan.outputs());
    }
}
