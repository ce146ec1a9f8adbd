package io.duetdb.spark;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableCatalogCapability;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.time.Timestamp;
import io.duetdb.spark.internal.CatalogDdl;
import io.duetdb.spark.internal.CatalogReader;
import io.duetdb.spark.internal.ClusterConnections;
import io.duetdb.spark.internal.ConnectorOptions;
import io.duetdb.spark.internal.DuetTable;
import io.duetdb.spark.internal.SessionSettings;

/**
 * DuetDB as a Spark catalog: {@code spark.sql.catalog.duet=io.duetdb.spark.DuetCatalog} with
 * {@code spark.sql.catalog.duet.pd=host:port[,host:port...]}. Databases are namespaces, tables are read at a snapshot
 * each query takes (or the one {@code TIMESTAMP AS OF} / {@code VERSION AS OF} names: a time, or a DuetDB
 * timestamp). CREATE and DROP of databases and tables run on the SQL server {@code spark.sql.catalog.duet.sql} names
 * (see {@link CatalogDdl}).
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

    /** CREATE DATABASE on the SQL server the {@code sql} option names. */
    @Override
    public void createNamespace(String[] namespace, Map<String, String> metadata)
            throws NamespaceAlreadyExistsException {
        if (namespace.length != 1) {
            throw new IllegalArgumentException("DuetDB databases are one name: " + String.join(".", namespace));
        }
        if (ddl("CREATE DATABASE").createDatabase(namespace[0]) == CatalogDdl.Outcome.ALREADY_EXISTS) {
            throw new NamespaceAlreadyExistsException(namespace);
        }
    }

    @Override
    public void alterNamespace(String[] namespace, NamespaceChange... changes) {
        throw new UnsupportedOperationException("DuetDB databases have no properties to alter");
    }

    /** DROP DATABASE on the SQL server; without CASCADE only an empty one. */
    @Override
    public boolean dropNamespace(String[] namespace, boolean cascade) throws NoSuchNamespaceException,
            NonEmptyNamespaceException {
        if (!cascade && listTables(namespace).length > 0) {
            throw new NonEmptyNamespaceException(namespace);
        }
        return ddl("DROP DATABASE").dropDatabase(namespace[0]) == CatalogDdl.Outcome.DONE;
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

    /**
     * CREATE TABLE on the SQL server the {@code sql} option names: Spark's types as MySQL types, the table property
     * {@code primary_key} (comma-separated columns) as its primary key.
     */
    @Override
    public Table createTable(Identifier ident, Column[] columns, Transform[] partitions, Map<String, String> properties)
            throws TableAlreadyExistsException, NoSuchNamespaceException {
        if (ident.namespace().length != 1) {
            throw new NoSuchNamespaceException(ident.namespace());
        }
        CatalogDdl.Outcome outcome = ddl("CREATE TABLE").createTable(ident.namespace()[0], ident.name(), columns,
                partitions, properties);
        if (outcome == CatalogDdl.Outcome.ALREADY_EXISTS) {
            throw new TableAlreadyExistsException(ident);
        }
        if (outcome == CatalogDdl.Outcome.NOT_FOUND) {
            throw new NoSuchNamespaceException(ident.namespace());
        }
        try {
            return loadTable(ident);
        } catch (NoSuchTableException e) {
            throw new IllegalStateException("table " + ident + " was created but cannot be read", e);
        }
    }

    /** DROP TABLE on the SQL server; false when there is no such table. */
    @Override
    public boolean dropTable(Identifier ident) {
        return ident.namespace().length == 1
                && ddl("DROP TABLE").dropTable(ident.namespace()[0], ident.name()) == CatalogDdl.Outcome.DONE;
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

    private CatalogDdl ddl(String statement) {
        return CatalogDdl.of(catalogOptions, statement);
    }

    private CatalogReader reader() {
        if (options == null) {
            throw new IllegalStateException("catalog " + name + " is not initialized");
        }
        return new CatalogReader(ClusterConnections.of(options).transactions());
    }
}
