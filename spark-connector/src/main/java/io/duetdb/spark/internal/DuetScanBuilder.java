package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownLimit;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.TableInfo;

/**
 * Collects what Spark pushes into a scan, in Spark's order (filters, limit, columns), and builds the scan: the
 * coprocessor plan every region runs, the snapshot it reads and the regions it covers.
 */
final class DuetScanBuilder implements ScanBuilder, SupportsPushDownV2Filters, SupportsPushDownRequiredColumns,
        SupportsPushDownLimit, SupportsPushDownAggregates {
    private final String name;
    private final TableInfo table;
    private final ConnectorOptions options;
    private final long readTs;
    private final StructType tableSchema;
    private final List<ColumnInfo> columns;
    private final PredicateTranslator tableTranslator;
    private Predicate[] pushed = new Predicate[0];
    private StructType required;
    private int limit = -1;
    private PushedAggregate aggregate;

    DuetScanBuilder(String name, TableInfo table, ConnectorOptions options, long readTs, StructType tableSchema) {
        this.name = requireNonNull(name, "name is null");
        this.table = requireNonNull(table, "table is null");
        this.options = requireNonNull(options, "options is null");
        this.readTs = readTs;
        this.tableSchema = requireNonNull(tableSchema, "tableSchema is null");
        this.columns = table.publicColumns();
        this.required = tableSchema;
        this.tableTranslator = new PredicateTranslator(scanColumns(columns));
    }

    @Override
    public Predicate[] pushPredicates(Predicate[] predicates) {
        List<Predicate> accepted = new ArrayList<>();
        List<Predicate> rest = new ArrayList<>();
        for (Predicate predicate : predicates) {
            if (options.pushDown() && readableColumns(predicate) && tableTranslator.translate(predicate).isPresent()) {
                accepted.add(predicate);
            } else {
                rest.add(predicate);
            }
        }
        pushed = accepted.toArray(Predicate[]::new);
        return rest.toArray(Predicate[]::new);
    }

    @Override
    public Predicate[] pushedPredicates() {
        return pushed.clone();
    }

    @Override
    public boolean pushAggregation(Aggregation aggregation) {
        if (!options.pushDown()) {
            return false;
        }
        aggregate = PushedAggregate.of(aggregation, columns).orElse(null);
        return aggregate != null;
    }

    @Override
    public boolean pushLimit(int count) {
        if (!options.pushDown()) {
            return false;
        }
        limit = count;
        return true;
    }

    @Override
    public boolean isPartiallyPushed() {
        return true;
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        required = requiredSchema;
    }

    @Override
    public Scan build() {
        if (aggregate != null) {
            List<ColumnInfo> scanColumns = new ArrayList<>(aggregate.inputs());
            for (Predicate predicate : pushed) {
                for (NamedReference reference : predicate.references()) {
                    ColumnInfo column = column(reference.fieldNames()[0].toLowerCase(Locale.ROOT));
                    if (!scanColumns.contains(column)) {
                        scanColumns.add(column);
                    }
                }
            }
            if (scanColumns.isEmpty()) {
                scanColumns.add(columns.get(0));
            }
            ScanPlan plan = ScanPlan.of(table, scanColumns, 0, List.of(pushed), -1, aggregate);
            return new DuetScan(name, table, options, readTs, aggregate.outputSchema(), plan);
        }
        Set<String> scanned = new LinkedHashSet<>();
        for (StructField field : required.fields()) {
            scanned.add(field.name().toLowerCase(Locale.ROOT));
        }
        int outputs = scanned.size();
        for (Predicate predicate : pushed) {
            for (NamedReference reference : predicate.references()) {
                scanned.add(reference.fieldNames()[0].toLowerCase(Locale.ROOT));
            }
        }
        List<ColumnInfo> scanColumns = new ArrayList<>();
        for (String column : scanned) {
            scanColumns.add(column(column));
        }
        if (scanColumns.isEmpty()) {
            // COUNT(*) needs rows, not values: scan the first column and hand Spark batches without columns.
            scanColumns.add(columns.get(0));
        }
        ScanPlan plan = ScanPlan.of(table, scanColumns, outputs, List.of(pushed), limit);
        return new DuetScan(name, table, options, readTs, required, plan);
    }

    private ColumnInfo column(String lowerCaseName) {
        for (ColumnInfo column : columns) {
            if (column.name().equalsIgnoreCase(lowerCaseName)) {
                return column;
            }
        }
        throw new IllegalArgumentException("table " + name + " has no column " + lowerCaseName + " (columns: "
                + String.join(", ", tableSchema.fieldNames()) + ")");
    }

    private boolean readableColumns(Predicate predicate) {
        for (NamedReference reference : predicate.references()) {
            if (reference.fieldNames().length != 1) {
                return false;
            }
        }
        return true;
    }

    /** Columns by lower-case name, at their position among {@code scanned}, with their coprocessor types. */
    static Map<String, PredicateTranslator.ScanColumn> scanColumns(List<ColumnInfo> scanned) {
        Map<String, PredicateTranslator.ScanColumn> byName = new HashMap<>();
        for (int i = 0; i < scanned.size(); i++) {
            ColumnInfo column = scanned.get(i);
            // Unsigned columns are not compared on the stores: Spark compares them in their widened types.
            if (io.duetdb.compute.scan.StoredValues.columnType(column.type()) != null) {
                byName.put(column.name().toLowerCase(Locale.ROOT),
                        new PredicateTranslator.ScanColumn(i, SparkTypes.scanType(column)));
            }
        }
        return byName;
    }
}
