package io.duetdb.spark;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableCatalogCapability;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.time.Timestamp;
import io.duetdb.spark.internal.CatalogReader;
import io.duetdb.spark.internal.ClusterConnections;
import io.duetdb.spark.internal.ConnectorOptions;
import io.duetdb.spark.internal.DuetTable;
import io.duetdb.spark.internal.SessionSettings;

/**
 * DuetDB as a Spark catalog: {@code spark.sql.catalog.duet=io.duetdb.spark.DuetCatalog} with
 * {@code spark.sql.catalog.duet.pd=host:port[,host:port...]}. Databases are namespaces, tables are read at a snapshot
 * each query takes (or the one {@code TIMESTAMP AS OF} / {@code VERSION AS OF} names: a time, or a DuetDB
 * timestamp).
 */
public final class DuetCatalog implements TableCatalog, SupportsNamespaces {
    private String name;
    private Map<String, String> catalogOptions;
    private ConnectorOptions options;

    @Override
    public void initialize(String catalogName, CaseInsensitiveStringMap settings) {
        this.name = requireNonNull(catalogName, "catalogName is null");
        this.catalogOptions = Map.copyOf(settings.asCaseSensitiveMap());
        this.options = ConnectorOptions.from(catalogOptions, SessionSettings.current());
    }

    @Override
    public String name() {
        return name;
    }

    /** Column defaults: a write that leaves a column out stores the column's DEFAULT. */
    @Override
    public Set<TableCatalogCapability> capabilities() {
        return Set.of(TableCatalogCapability.SUPPORT_COLUMN_DEFAULT_VALUE);
    }

    @Override
    public String[][] listNamespaces() {
        return reader().databases().stream().map(database -> new String[] {database.name()}).toArray(String[][]::new);
    }

    @Override
    public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
        if (namespace.length == 0) {
            return listNamespaces();
        }
        database(namespace);
        return new String[0][];
    }

    @Override
    public Map<String, String> loadNamespaceMetadata(String[] namespace) throws NoSuchNamespaceException {
        DatabaseInfo database = database(namespace);
        return Map.of("duet.database_id", Long.toString(database.id()));
    }

    @Override
    public void createNamespace(String[] namespace, Map<String, String> metadata) {
        throw new UnsupportedOperationException("CREATE DATABASE through the Spark catalog is not supported yet: run"
                + " CREATE DATABASE " + String.join(".", namespace) + " on a DuetDB SQL server");
    }

    @Override
    public void alterNamespace(String[] namespace, NamespaceChange... changes) {
        throw new UnsupportedOperationException("DuetDB databases have no properties to alter");
    }

    @Override
    public boolean dropNamespace(String[] namespace, boolean cascade) {
        throw new UnsupportedOperationException("DROP DATABASE through the Spark catalog is not supported yet: run"
                + " DROP DATABASE " + String.join(".", namespace) + " on a DuetDB SQL server");
    }

    @Override
    public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
        DatabaseInfo database = database(namespace);
        return reader().tables(database).stream().map(table -> Identifier.of(namespace, table.name()))
                .toArray(Identifier[]::new);
    }

    @Override
    public Table loadTable(Identifier ident) throws NoSuchTableException {
        return load(ident, 0);
    }

    /** TIMESTAMP AS OF: {@code timestamp} is in microseconds since the epoch. */
    @Override
    public Table loadTable(Identifier ident, long timestamp) throws NoSuchTableException {
        Instant time = Instant.ofEpochSecond(Math.floorDiv(timestamp, 1_000_000L), Math.floorMod(timestamp, 1_000_000L) * 1000);
        return load(ident, new Timestamp(time.toEpochMilli(), 0).packed());
    }

    /** VERSION AS OF: a DuetDB timestamp, as {@code SELECT @@tidb_current_ts} gives it. */
    @Override
    public Table loadTable(Identifier ident, String version) throws NoSuchTableException {
        long readTs;
        try {
            readTs = Long.parseLong(version.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("VERSION AS OF takes a DuetDB timestamp (a number such as"
                    + " @@tidb_current_ts gives), not '" + version + "'");
        }
        return load(ident, readTs);
    }

    private Table load(Identifier ident, long readTs) throws NoSuchTableException {
        if (ident.namespace().length != 1) {
            throw new NoSuchTableException(ident);
        }
        String database = ident.namespace()[0];
        TableInfo table = reader().table(database, ident.name(), readTs).orElseThrow(() -> new NoSuchTableException(ident));
        return new DuetTable(database, table, readTs, catalogOptions);
    }

    @Override
    public Table alterTable(Identifier ident, TableChange... changes) {
        throw new UnsupportedOperationException("ALTER TABLE through the Spark catalog is not supported: run it on a"
                + " DuetDB SQL server");
    }

    @Override
    public boolean dropTable(Identifier ident) {
        throw new UnsupportedOperationException("DROP TABLE through the Spark catalog is not supported yet: run DROP TABLE "
                + ident + " on a DuetDB SQL server");
    }

    @Override
    public void renameTable(Identifier oldIdent, Identifier newIdent) {
        throw new UnsupportedOperationException("RENAME TABLE through the Spark catalog is not supported: run it on a"
                + " DuetDB SQL server");
    }

    private DatabaseInfo database(String[] namespace) throws NoSuchNamespaceException {
        if (namespace.length != 1) {
            throw new NoSuchNamespaceException(namespace);
        }
        return reader().database(namespace[0]).orElseThrow(() -> new NoSuchNamespaceException(namespace));
    }

    private CatalogReader reader() {
        if (options == null) {
            throw new IllegalStateException("catalog " + name + " is not initialized");
        }
        return new CatalogReader(ClusterConnections.of(options).transactions());
    }
}
