package io.duetdb.sql.statistics;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.time.Timestamp;
import io.duetdb.compute.Literals;
import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.AnalyzeRequest;
import io.duetdb.proto.coprocessor.ColumnGroup;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScanColumn;
import io.duetdb.proto.coprocessor.TableScan;
import io.duetdb.proto.coprocessor.ValueType;
import io.duetdb.sql.exec.ComputeValues;

/**
 * ANALYZE TABLE: every region of the table counts its rows, sketches each column's distinct values and samples
 * rows, in the stores and in parallel (one pass over the data, nothing but the sample comes back); the answers
 * become the table's statistics in the catalog.
 */
public final class TableAnalyzer {
    private static final Logger LOG = LoggerFactory.getLogger(TableAnalyzer.class);
    /** Rows sampled per region: the histograms' and frequent values' resolution. */
    static final int SAMPLE_ROWS_PER_REGION = 10_000;

    private final StatisticsCache cache;

    public TableAnalyzer(StatisticsCache cache) {
        this.cache = requireNonNull(cache, "cache is null");
    }

    public TableStatistics analyze(Transaction transaction, TableInfo table) {
        long started = System.nanoTime();
        List<ColumnInfo> columns = table.publicColumns();
        List<FieldType> types = new ArrayList<>();
        TableScan.Builder scan = TableScan.newBuilder().setTableId(table.id());
        for (ColumnInfo column : columns) {
            FieldType type = ComputeValues.columnType(column);
            if (type == null) {
                type = ValueTypes.of(ValueType.UINT64);
            }
            types.add(type);
            ScanColumn.Builder scanColumn = ScanColumn.newBuilder().setColumnId(column.id()).setType(type);
            Object origin = column.originDefault();
            Object computed = origin == null || type.getType() == ValueType.UINT64 ? null : ComputeValues.toCompute(origin, type);
            if (computed != null) {
                scanColumn.setDefaultValue(Literals.of(computed));
            }
            scan.addColumns(scanColumn);
        }
        AnalyzeRequest.Builder request = AnalyzeRequest.newBuilder().setTableScan(scan).setSampleSize(SAMPLE_ROWS_PER_REGION)
                .setSeed(table.id());
        List<StatisticsBuilder.AnalyzedIndex> indexes = new ArrayList<>();
        for (IndexInfo index : table.indexes()) {
            if (index.state() != SchemaState.PUBLIC) {
                continue;
            }
            List<Integer> positions = new ArrayList<>();
            List<Integer> columnIds = new ArrayList<>();
            for (String name : index.columns()) {
                for (int i = 0; i < columns.size(); i++) {
                    if (columns.get(i).name().equalsIgnoreCase(name)) {
                        positions.add(i);
                        columnIds.add(columns.get(i).id());
                    }
                }
            }
            if (positions.size() != index.columns().size()) {
                continue;
            }
            // One sketch per prefix: equalities on an index's first k columns are priced by its k-column tuples.
            for (int k = 1; k <= positions.size(); k++) {
                request.addColumnGroups(ColumnGroup.newBuilder().addAllColumns(positions.subList(0, k)));
            }
            indexes.add(new StatisticsBuilder.AnalyzedIndex(index.id(), index.name(), columnIds));
        }
        var responses = transaction.analyze(request.build().toByteArray(), Keys.recordPrefix(table.id()),
                Keys.recordEnd(table.id()));
        Timestamp timestamp = Timestamp.fromPacked(transaction.startTs());
        TableStatistics statistics = StatisticsBuilder.build(table.id(), transaction.startTs(),
                timestamp.physicalInstant().toString(), columns, types, indexes, responses);
        cache.store(statistics);
        LOG.info("analyzed table {} ({}): {} rows in {} ms", table.name(), table.id(), statistics.rowCount(),
                (System.nanoTime() - started) / 1_000_000);
        return statistics;
    }
}
