package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import io.duetdb.common.catalog.TableInfo;

/**
 * A DuetDB table as Spark sees it. {@code readTs} pins reads to a past snapshot (TIMESTAMP AS OF, VERSION AS OF);
 * zero reads the snapshot each scan takes when Spark plans it.
 */
public final class DuetTable implements SupportsRead, SupportsWrite {
    private final String database;
    private final TableInfo table;
    private final long readTs;
    private final StructType schema;
    private final Map<String, String> baseOptions;

    /** {@code baseOptions}: the catalog's or the read's options, merged with each scan's and the session's. */
    public DuetTable(String database, TableInfo table, long readTs,
            Map<String, String> baseOptions) {
        this.database = requireNonNull(database, "database is null");
        this.table = requireNonNull(table, "table is null");
        this.readTs = readTs;
        this.schema = SparkTypes.schema(table);
        this.baseOptions = Map.copyOf(requireNonNull(baseOptions, "baseOptions is null"));
    }

    @Override
    public String name() {
        return database + "." + table.name();
    }

    @Override
    public Column[] columns() {
        return SparkTypes.columns(table);
    }

    @Override
    public StructType schema() {
        return SparkTypes.writeSchema(table);
    }

    @Override
    public Map<String, String> properties() {
        return Map.of("duet.table_id", Long.toString(table.id()), "duet.columnar_replicas",
                Integer.toString(table.columnarReplicas()));
    }

    @Override
    public Set<TableCapability> capabilities() {
        return Set.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap scanOptions) {
        Map<String, String> merged = new HashMap<>(baseOptions);
        merged.putAll(scanOptions.asCaseSensitiveMap());
        return new DuetScanBuilder(name(), table, ConnectorOptions.from(merged, SessionSettings.current()), readTs, schema);
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
        if (readTs != 0) {
            throw new UnsupportedOperationException("cannot write to " + name() + " as of a past snapshot");
        }
        Map<String, String> merged = new HashMap<>(baseOptions);
        merged.putAll(info.options().asCaseSensitiveMap());
        return new DuetWrite(name(), table, ConnectorOptions.from(merged, SessionSettings.current()), info);
    }

    public TableInfo info() {
        return table;
    }
}
