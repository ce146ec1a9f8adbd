package io.duetdb.spark;

import java.util.Map;

import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import io.duetdb.common.catalog.TableInfo;
import io.duetdb.spark.internal.CatalogReader;
import io.duetdb.spark.internal.ClusterConnections;
import io.duetdb.spark.internal.ConnectorOptions;
import io.duetdb.spark.internal.DuetTable;
import io.duetdb.spark.internal.SessionSettings;

/**
 * {@code spark.read.format("duet").option("pd", "host:port").option("table", "db.t")}: a DuetDB table without a
 * catalog. The schema always comes from DuetDB; a schema given by the reader is refused.
 */
public final class DuetDataSource implements TableProvider, DataSourceRegister {
    public static final String TABLE = "table";

    @Override
    public String shortName() {
        return "duet";
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap settings) {
        return load(settings.asCaseSensitiveMap()).schema();
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        return load(properties);
    }

    @Override
    public boolean supportsExternalMetadata() {
        return false;
    }

    private static DuetTable load(Map<String, String> settings) {
        CaseInsensitiveStringMap lookup = new CaseInsensitiveStringMap(settings);
        String qualified = lookup.get(TABLE);
        if (qualified == null || qualified.isBlank()) {
            throw new IllegalArgumentException("option '" + TABLE + "' is missing: name the table as database.table");
        }
        String[] parts = qualified.trim().split("\\.", -1);
        if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
            throw new IllegalArgumentException("option '" + TABLE + "' must be database.table, not '" + qualified + "'");
        }
        ConnectorOptions options = ConnectorOptions.from(settings, SessionSettings.current());
        TableInfo table = new CatalogReader(ClusterConnections.of(options).transactions()).table(parts[0], parts[1], 0)
                .orElseThrow(() -> new IllegalArgumentException("table " + qualified + " does not exist in DuetDB"));
        return new DuetTable(parts[0], table, 0, settings);
    }
}
