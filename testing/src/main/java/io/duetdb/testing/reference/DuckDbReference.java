package io.duetdb.testing.reference;

import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.duckdb.DuckDBConnection;

/**
 * The reference engine: an in-memory DuckDB in this process (its JDBC driver bundles the native library), loaded
 * with the same generated data. Its runners use duplicates of one connection, so they share the database.
 */
public final class DuckDbReference implements AutoCloseable {
    private final DuckDBConnection connection;

    private DuckDbReference(DuckDBConnection connection) {
        this.connection = connection;
    }

    /** A new in-memory DuckDB holding {@code data}. */
    public static DuckDbReference load(GeneratedData<?> data, PrintStream progress) throws SQLException {
        DuckDBConnection connection = DriverManager.getConnection("jdbc:duckdb:").unwrap(DuckDBConnection.class);
        try {
            DataLoader.loadDuckDb(connection, data, progress);
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
        return new DuckDbReference(connection);
    }

    /** Writes each table to {@code directory}/{table}.parquet (what Spark reads as the Parquet baseline). */
    public void exportParquet(List<? extends Table> tables, Path directory) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (Table table : tables) {
                String file = directory.resolve(table.sqlName() + ".parquet").toString().replace("'", "''");
                statement.execute("COPY " + table.sqlName() + " TO '" + file + "' (FORMAT parquet)");
            }
        }
    }

    /**
     * Writes each table to {@code directory}/{table}.csv as LOAD DATA and IMPORT INTO read by default: comma
     * separated, '"' quoting where needed, {@code \N} for NULL, no header.
     */
    public void exportCsv(List<? extends Table> tables, Path directory) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (Table table : tables) {
                String file = directory.resolve(table.sqlName() + ".csv").toString().replace("'", "''");
                statement.execute("COPY " + table.sqlName() + " TO '" + file + "' (FORMAT csv, HEADER false,"
                        + " NULLSTR '\\N', ESCAPE '\"')");
            }
        }
    }

    /** A query runner on this database. */
    public QueryRunner runner() {
        return new QueryRunner("duckdb", this::duplicate);
    }

    private Connection duplicate() throws SQLException {
        return connection.duplicate();
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
