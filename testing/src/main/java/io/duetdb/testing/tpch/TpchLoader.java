package io.duetdb.testing.tpch;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Creates the TPC-H schema and loads {@link TpchData}'s rows: into any MySQL endpoint (DuetDB, MariaDB, MySQL)
 * through JDBC as multi-row {@code INSERT ... VALUES} statements in autocommit, from several connections at once,
 * printing progress; and into DuckDB through its appender.
 */
public final class TpchLoader {
    /** Opens a connection to the endpoint being loaded. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection open() throws SQLException;
    }

    /** What a load did: rows per table and the seconds it took. */
    public record Stats(Map<TpchTable, Long> rows, double seconds) {
        public long totalRows() {
            return rows.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private TpchLoader() {
    }

    /**
     * Drops those of the eight tables that exist and creates them all (primary keys, no other index). Tables that
     * do not exist are not dropped "if exists": on DuetDB every DDL statement waits two schema leases.
     */
    public static void createSchema(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (TpchTable table : TpchTable.values()) {
                if (exists(connection, table)) {
                    statement.execute("DROP TABLE " + table.sqlName());
                }
            }
            for (TpchTable table : TpchTable.values()) {
                statement.execute(table.createTableSql());
            }
        }
    }

    private static boolean exists(Connection connection, TpchTable table) {
        try (Statement statement = connection.createStatement()) {
            statement.executeQuery("SELECT 1 FROM " + table.sqlName() + " WHERE 1 = 0").close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /** Row counts of the eight tables on an endpoint; a missing table counts -1. */
    public static Map<TpchTable, Long> rowCounts(Connection connection) {
        Map<TpchTable, Long> counts = new EnumMap<>(TpchTable.class);
        for (TpchTable table : TpchTable.values()) {
            try (Statement statement = connection.createStatement();
                    ResultSet result = statement.executeQuery("SELECT COUNT(*) FROM " + table.sqlName())) {
                result.next();
                counts.put(table, result.getLong(1));
            } catch (SQLException e) {
                counts.put(table, -1L);
            }
        }
        return counts;
    }

    /** Whether the endpoint holds exactly the rows {@code data} generates (compared by count per table). */
    public static boolean holds(Connection connection, TpchData data) {
        Map<TpchTable, Long> counts = rowCounts(connection);
        for (TpchTable table : TpchTable.values()) {
            long expected = table == TpchTable.LINEITEM ? lineItems(data) : data.approximateRows(table);
            if (counts.get(table) != expected) {
                return false;
            }
        }
        return true;
    }

    private static long lineItems(TpchData data) {
        long[] count = {0};
        data.generate(TpchTable.LINEITEM, row -> count[0]++);
        return count[0];
    }

    /**
     * Creates the schema (through the first connection) and loads every table through {@code threads}
     * connections, {@code rowsPerInsert} rows per statement, each statement in autocommit. Progress goes to
     * {@code progress} every few seconds and after each table.
     */
    public static Stats loadMysql(ConnectionSource source, TpchData data, int threads, int rowsPerInsert,
            PrintStream progress) throws Exception {
        long start = System.nanoTime();
        try (Connection connection = source.open()) {
            createSchema(connection);
        }
        Map<TpchTable, AtomicLong> loaded = new EnumMap<>(TpchTable.class);
        for (TpchTable table : TpchTable.values()) {
            loaded.put(table, new AtomicLong());
        }
        ConcurrentLinkedQueue<Chunk> chunks = new ConcurrentLinkedQueue<>();
        for (TpchTable table : TpchTable.values()) {
            long units = data.units(table);
            double rowsPerUnit = data.approximateRows(table) / (double) units;
            long unitsPerStatement = Math.max(1, (long) (rowsPerInsert / rowsPerUnit));
            long unitsPerChunk = unitsPerStatement * 8;
            for (long from = 0; from < units; from += unitsPerChunk) {
                chunks.add(new Chunk(table, from, Math.min(units, from + unitsPerChunk), unitsPerStatement));
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "tpch-loader");
            thread.setDaemon(true);
            return thread;
        });
        Thread reporter = new Thread(() -> report(data, loaded, start, progress), "tpch-load-progress");
        reporter.setDaemon(true);
        reporter.start();
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                workers.add(pool.submit(() -> {
                    try (Connection connection = source.open(); Statement statement = connection.createStatement()) {
                        Chunk chunk;
                        while ((chunk = chunks.poll()) != null) {
                            insertChunk(statement, data, chunk, loaded.get(chunk.table()));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                try {
                    worker.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    chunks.clear();
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
            reporter.interrupt();
        }
        Map<TpchTable, Long> rows = new EnumMap<>(TpchTable.class);
        loaded.forEach((table, count) -> rows.put(table, count.get()));
        Stats stats = new Stats(rows, (System.nanoTime() - start) / 1e9);
        progress.printf("loaded %,d rows in %.1f s (%,.0f rows/s)%n", stats.totalRows(), stats.seconds(),
                stats.totalRows() / Math.max(1e-9, stats.seconds()));
        return stats;
    }

    private record Chunk(TpchTable table, long from, long to, long unitsPerStatement) {
    }

    private static void insertChunk(Statement statement, TpchData data, Chunk chunk, AtomicLong loaded)
            throws SQLException {
        String head = "INSERT INTO " + chunk.table().sqlName() + " (" + chunk.table().columnList() + ") VALUES ";
        for (long from = chunk.from(); from < chunk.to(); from += chunk.unitsPerStatement()) {
            StringBuilder sql = new StringBuilder(head);
            int[] rows = {0};
            data.generate(chunk.table(), from, Math.min(chunk.to(), from + chunk.unitsPerStatement()), row -> {
                sql.append(rows[0]++ > 0 ? ",(" : "(");
                for (int i = 0; i < row.length; i++) {
                    if (i > 0) {
                        sql.append(',');
                    }
                    literal(sql, row[i]);
                }
                sql.append(')');
            });
            statement.executeUpdate(sql.toString());
            loaded.addAndGet(rows[0]);
        }
    }

    /** A value as a MySQL literal; dates as strings, which every MySQL server converts to the column's DATE. */
    static void literal(StringBuilder sql, Object value) {
        if (value instanceof Integer || value instanceof Long) {
            sql.append(value);
        } else if (value instanceof BigDecimal decimal) {
            sql.append(decimal.toPlainString());
        } else if (value instanceof LocalDate date) {
            sql.append('\'').append(date).append('\'');
        } else {
            String text = (String) value;
            sql.append('\'');
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '\'' || c == '\\') {
                    sql.append(c);
                }
                sql.append(c);
            }
            sql.append('\'');
        }
    }

    private static void report(TpchData data, Map<TpchTable, AtomicLong> loaded, long start, PrintStream progress) {
        long[] last = new long[TpchTable.values().length];
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(5_000);
                StringBuilder line = new StringBuilder(String.format("  %5.0f s:", (System.nanoTime() - start) / 1e9));
                long total = 0;
                for (TpchTable table : TpchTable.values()) {
                    long rows = loaded.get(table).get();
                    total += rows;
                    if (rows != last[table.ordinal()]) {
                        line.append(String.format(" %s %,d/%,d", table.sqlName(), rows, data.approximateRows(table)));
                        last[table.ordinal()] = rows;
                    }
                }
                progress.println(line.append(String.format(" (%,d rows, %,.0f rows/s)", total,
                        total / ((System.nanoTime() - start) / 1e9))));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Creates the schema in DuckDB and loads every table through its appender. */
    public static Stats loadDuckDb(Connection connection, TpchData data, PrintStream progress) throws SQLException {
        long start = System.nanoTime();
        createSchema(connection);
        DuckDBConnection duckdb = connection.unwrap(DuckDBConnection.class);
        Map<TpchTable, Long> rows = new EnumMap<>(TpchTable.class);
        for (TpchTable table : TpchTable.values()) {
            long[] count = {0};
            try (DuckDBAppender appender = duckdb.createAppender(DuckDBConnection.DEFAULT_SCHEMA, table.sqlName())) {
                SQLException[] failure = {null};
                data.generate(table, row -> {
                    if (failure[0] != null) {
                        return;
                    }
                    try {
                        appender.beginRow();
                        for (Object value : row) {
                            if (value instanceof Integer i) {
                                appender.append(i.intValue());
                            } else if (value instanceof BigDecimal decimal) {
                                appender.append(decimal);
                            } else if (value instanceof LocalDate date) {
                                appender.append(date);
                            } else {
                                appender.append((String) value);
                            }
                        }
                        appender.endRow();
                        count[0]++;
                    } catch (SQLException e) {
                        failure[0] = e;
                    }
                });
                if (failure[0] != null) {
                    throw failure[0];
                }
            }
            rows.put(table, count[0]);
        }
        Stats stats = new Stats(rows, (System.nanoTime() - start) / 1e9);
        progress.printf("reference (DuckDB): loaded %,d rows in %.1f s%n", stats.totalRows(), stats.seconds());
        return stats;
    }
}
