package io.duetdb.testing.reference;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Creates a generated data set's schema and loads its rows: into any MySQL endpoint (DuetDB, MariaDB, MySQL)
 * through JDBC as multi-row {@code INSERT ... VALUES} statements in autocommit, from several connections at once,
 * printing progress; and into DuckDB through its appender.
 */
public final class DataLoader {
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    /** What a load did: rows per table name and the seconds it took. */
    public record Stats(Map<String, Long> rows, double seconds) {
        public long totalRows() {
            return rows.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private DataLoader() {
    }

    /**
     * Drops those of the tables that exist and creates them all (primary keys, no other index). Tables that do
     * not exist are not dropped "if exists": on DuetDB every DDL statement waits two schema leases.
     */
    public static void createSchema(Connection connection, List<? extends Table> tables) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (Table table : tables) {
                if (exists(connection, table)) {
                    statement.execute("DROP TABLE " + table.sqlName());
                }
            }
            for (Table table : tables) {
                statement.execute(table.createTableSql());
            }
        }
    }

    private static boolean exists(Connection connection, Table table) {
        try (Statement statement = connection.createStatement()) {
            statement.executeQuery("SELECT 1 FROM " + table.sqlName() + " WHERE 1 = 0").close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Creates the schema (through the first connection) and loads every table through {@code threads}
     * connections, about {@code rowsPerInsert} rows per statement, each statement in autocommit. Progress goes to
     * {@code progress} every few seconds.
     */
    public static <T extends Table> Stats loadMysql(ConnectionSource source, GeneratedData<T> data, int threads,
            int rowsPerInsert, PrintStream progress) throws Exception {
        long start = System.nanoTime();
        try (Connection connection = source.open()) {
            createSchema(connection, data.tables());
        }
        Map<T, AtomicLong> loaded = new LinkedHashMap<>();
        ConcurrentLinkedQueue<Chunk<T>> chunks = new ConcurrentLinkedQueue<>();
        for (T table : data.tables()) {
            loaded.put(table, new AtomicLong());
            long units = data.units(table);
            double rowsPerUnit = Math.max(1, data.approximateRows(table)) / (double) Math.max(1, units);
            long unitsPerStatement = Math.max(1, (long) (rowsPerInsert / rowsPerUnit));
            long unitsPerChunk = unitsPerStatement * 8;
            for (long from = 0; from < units; from += unitsPerChunk) {
                chunks.add(new Chunk<>(table, from, Math.min(units, from + unitsPerChunk), unitsPerStatement));
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "data-loader");
            thread.setDaemon(true);
            return thread;
        });
        Thread reporter = new Thread(() -> report(data, loaded, start, progress), "data-load-progress");
        reporter.setDaemon(true);
        reporter.start();
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                workers.add(pool.submit(() -> {
                    try (Connection connection = source.open(); Statement statement = connection.createStatement()) {
                        Chunk<T> chunk;
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
                } catch (ExecutionException e) {
                    chunks.clear();
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
            reporter.interrupt();
        }
        Map<String, Long> rows = new LinkedHashMap<>();
        loaded.forEach((table, count) -> rows.put(table.sqlName(), count.get()));
        Stats stats = new Stats(rows, (System.nanoTime() - start) / 1e9);
        progress.printf("loaded %,d rows in %.1f s (%,.0f rows/s)%n", stats.totalRows(), stats.seconds(),
                stats.totalRows() / Math.max(1e-9, stats.seconds()));
        analyze(source, data.tables(), progress);
        return stats;
    }

    /** ANALYZE TABLE after loading, as users of MySQL and TiDB do, so that plans use statistics. */
    private static void analyze(ConnectionSource source, List<? extends Table> tables, PrintStream progress)
            throws SQLException {
        long start = System.nanoTime();
        try (Connection connection = source.open(); Statement statement = connection.createStatement()) {
            for (Table table : tables) {
                statement.execute("ANALYZE TABLE " + table.sqlName());
            }
        }
        progress.printf("analyzed %d tables in %.1f s%n", tables.size(), (System.nanoTime() - start) / 1e9);
    }

    private record Chunk<T extends Table>(T table, long from, long to, long unitsPerStatement) {
    }

    private static <T extends Table> void insertChunk(Statement statement, GeneratedData<T> data, Chunk<T> chunk,
            AtomicLong loaded) throws SQLException {
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
            if (rows[0] > 0) {
                statement.executeUpdate(sql.toString());
            }
            loaded.addAndGet(rows[0]);
        }
    }

    /**
     * A value as a MySQL literal; dates and datetimes as strings, which every MySQL server converts to the
     * column's type.
     */
    public static void literal(StringBuilder sql, Object value) {
        if (value == null) {
            sql.append("NULL");
        } else if (value instanceof Integer || value instanceof Long) {
            sql.append(value);
        } else if (value instanceof BigDecimal decimal) {
            sql.append(decimal.toPlainString());
        } else if (value instanceof LocalDate date) {
            sql.append('\'').append(date).append('\'');
        } else if (value instanceof LocalDateTime dateTime) {
            sql.append('\'').append(DATE_TIME.format(dateTime)).append('\'');
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

    private static <T extends Table> void report(GeneratedData<T> data, Map<T, AtomicLong> loaded, long start,
            PrintStream progress) {
        Map<T, Long> last = new LinkedHashMap<>();
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(5_000);
                StringBuilder line = new StringBuilder(String.format("  %5.0f s:", (System.nanoTime() - start) / 1e9));
                long total = 0;
                for (Map.Entry<T, AtomicLong> entry : loaded.entrySet()) {
                    long rows = entry.getValue().get();
                    total += rows;
                    if (!Long.valueOf(rows).equals(last.put(entry.getKey(), rows))) {
                        line.append(String.format(" %s %,d/%,d", entry.getKey().sqlName(), rows,
                                data.approximateRows(entry.getKey())));
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
    public static <T extends Table> Stats loadDuckDb(Connection connection, GeneratedData<T> data,
            PrintStream progress) throws SQLException {
        long start = System.nanoTime();
        createSchema(connection, data.tables());
        DuckDBConnection duckdb = connection.unwrap(DuckDBConnection.class);
        Map<String, Long> rows = new LinkedHashMap<>();
        for (T table : data.tables()) {
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
                            append(appender, value);
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
            rows.put(table.sqlName(), count[0]);
        }
        Stats stats = new Stats(rows, (System.nanoTime() - start) / 1e9);
        progress.printf("reference (DuckDB): loaded %,d rows in %.1f s%n", stats.totalRows(), stats.seconds());
        return stats;
    }

    private static void append(DuckDBAppender appender, Object value) throws SQLException {
        if (value == null) {
            appender.appendNull();
        } else if (value instanceof Integer i) {
            appender.append(i.intValue());
        } else if (value instanceof Long l) {
            appender.append(l.longValue());
        } else if (value instanceof BigDecimal decimal) {
            appender.append(decimal);
        } else if (value instanceof LocalDate date) {
            appender.append(date);
        } else if (value instanceof LocalDateTime dateTime) {
            appender.append(dateTime);
        } else {
            appender.append((String) value);
        }
    }
}
