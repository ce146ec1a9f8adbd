package io.duetdb.sql.ddl;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.Keys;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.StoreState;
import io.duetdb.proto.placement.LabelConstraint;
import io.duetdb.proto.placement.LabelOperator;
import io.duetdb.proto.placement.PlacementRule;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.placement.StoreInfo;
import io.duetdb.proto.placement.StoreLiveness;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.catalog.DdlJob;
import io.duetdb.sql.catalog.InfoSchema;

/**
 * Column learner replicas of tables (TiDB's ALTER TABLE ... SET TIFLASH REPLICA n): the count lives in the table's
 * catalog record, and placement gets one rule per table that asks for that many learners on columnar stores over
 * the table's rows. Rules follow the catalog: a dropped table loses its rule, a truncated one moves it to its new id.
 */
public final class ColumnarReplicas {
    private static final Logger LOG = LoggerFactory.getLogger(ColumnarReplicas.class);
    static final String RULE_PREFIX = "columnar-table-";
    private static final String ENGINE_LABEL = "engine";
    private static final String COLUMNAR_ENGINE = "columnar";

    private final Catalog catalog;
    private final PlacementClient placement;

    public ColumnarReplicas(Catalog catalog, PlacementClient placement) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.placement = requireNonNull(placement, "placement is null");
    }

    void set(SqlIdentifier tableName, int count, String currentDatabase, DdlJobRecord job) {
        String[] name = DdlExecutor.qualified(tableName, currentDatabase);
        if (count < 0) {
            throw new DuetException(ErrorCode.UNKNOWN_ERROR, "the tiflash replica count must not be negative");
        }
        if (count > 0) {
            long learners = placement.getAllStores().stream().filter(ColumnarReplicas::isLearnerStore).count();
            if (count > learners) {
                throw new DuetException(ErrorCode.UNKNOWN_ERROR, "the tiflash replica count: " + count
                        + " should be less than the total tiflash server count: " + learners);
            }
        }
        TableInfo changed = job.runDdl("set tiflash replica " + count + " on " + name[0] + "." + name[1],
                (ddl, current) -> {
                    TableInfo table = DdlExecutor.table(current, name);
                    job.describe(name[0], table.name(), table.databaseId(), table.id(),
                            DdlJob.schemaStateText(SchemaState.PUBLIC));
                    if (table.columnarReplicas() == count) {
                        return table;
                    }
                    TableInfo updated = table.withColumnarReplicas(count);
                    ddl.putTable(updated);
                    return updated;
                });
        syncRule(changed);
        LOG.info("table {}.{} (id {}) asks for {} column learner replicas", name[0], name[1], changed.id(), count);
    }

    /** The base tables of a database, as names for {@link #set} (ALTER DATABASE ... SET TIFLASH REPLICA). */
    List<SqlIdentifier> baseTables(String databaseName) {
        InfoSchema schema = catalog.current();
        DatabaseInfo database = schema.database(databaseName).orElseThrow(() -> new DuetException(
                ErrorCode.UNKNOWN_DATABASE, "Unknown database '" + databaseName + "'"));
        List<SqlIdentifier> tables = new ArrayList<>();
        for (TableInfo table : schema.tables(database)) {
            if (table.view() == null) {
                tables.add(new SqlIdentifier(List.of(databaseName, table.name()), SqlParserPos.ZERO));
            }
        }
        return tables;
    }

    /** Brings placement's rules in line with the current catalog: one per table with replicas, none for others. */
    public void sync() {
        InfoSchema schema = catalog.current();
        Map<String, TableInfo> wanted = new HashMap<>();
        for (DatabaseInfo database : schema.databases()) {
            for (TableInfo table : schema.tables(database)) {
                if (table.view() == null && table.columnarReplicas() > 0) {
                    wanted.put(ruleId(table.id()), table);
                }
            }
        }
        for (PlacementRule rule : placement.getPlacementRules()) {
            if (rule.getId().startsWith(RULE_PREFIX) && !wanted.containsKey(rule.getId())) {
                placement.deletePlacementRule(rule.getId());
                LOG.info("removed placement rule {}: its table is gone or asks for no column replicas", rule.getId());
            }
        }
        for (TableInfo table : wanted.values()) {
            syncRule(table);
        }
    }

    private void syncRule(TableInfo table) {
        if (table.columnarReplicas() == 0) {
            placement.deletePlacementRule(ruleId(table.id()));
            return;
        }
        placement.putPlacementRule(PlacementRule.newBuilder().setId(ruleId(table.id()))
                .setStartKey(ByteString.copyFrom(Keys.recordPrefix(table.id())))
                .setEndKey(ByteString.copyFrom(Keys.recordEnd(table.id())))
                .setRole(PeerRole.LEARNER).setCount(table.columnarReplicas())
                .addLabelConstraints(LabelConstraint.newBuilder().setKey(ENGINE_LABEL).setOp(LabelOperator.IN)
                        .addValues(COLUMNAR_ENGINE))
                .build());
    }

    /**
     * The share of the table's regions whose asked-for learner replicas are in place and caught up (TiDB's
     * PROGRESS of information_schema.tiflash_replica): 1 when every region has them.
     */
    public double progress(TableInfo table) {
        if (table.columnarReplicas() == 0) {
            return 0;
        }
        Map<Long, Boolean> learnerStores = new HashMap<>();
        for (StoreInfo store : placement.getAllStores()) {
            learnerStores.put(store.getStore().getId(), isLearnerStore(store));
        }
        List<RegionInfo> regions = placement.scanRegions(Keys.recordPrefix(table.id()), Keys.recordEnd(table.id()), 0);
        if (regions.isEmpty()) {
            return 0;
        }
        long ready = 0;
        for (RegionInfo region : regions) {
            long learners = 0;
            for (Peer peer : region.getRegion().getPeersList()) {
                if (peer.getRole() == PeerRole.LEARNER && learnerStores.getOrDefault(peer.getStoreId(), false)
                        && !region.getPendingPeersList().contains(peer) && !region.getDownPeersList().contains(peer)) {
                    learners++;
                }
            }
            if (learners >= table.columnarReplicas()) {
                ready++;
            }
        }
        return (double) ready / regions.size();
    }

    static String ruleId(long tableId) {
        return RULE_PREFIX + tableId;
    }

    static boolean isLearnerStore(StoreInfo store) {
        return store.getStore().getState() == StoreState.SERVING && store.getLiveness() == StoreLiveness.UP
                && store.getStore().getLabelsList().stream().anyMatch(label -> label.getKey().equals(ENGINE_LABEL)
                        && label.getValue().equals(COLUMNAR_ENGINE));
    }
}
