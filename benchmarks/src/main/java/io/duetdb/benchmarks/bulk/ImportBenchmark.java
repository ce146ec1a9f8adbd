package io.duetdb.benchmarks.bulk;

import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.duetdb.benchmarks.common.DataDirectories;
import io.duetdb.benchmarks.mariadb.PrivateMariaDb;
import io.duetdb.cli.Main;
import io.duetdb.common.config.DataSize;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.LocalSqlServers;
import io.duetdb.testing.reference.DataLoader;
import io.duetdb.testing.reference.DuckDbReference;
import io.duetdb.testing.tpch.TpchData;
import io.duetdb.testing.tpch.TpchTable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Bulk import of TPC-H from CSV files on local disk: IMPORT INTO (physical import) into an in-process cluster of
 * three stores (the playground's layout), table by table, and with --mariadb the same files through MariaDB's
 * LOAD DATA LOCAL INFILE in the same run. Prints rows/s per table and in total (every table's row count is checked),
 * then bin/duet export's rows/s for the whole database.
 */
@Command(name = "import", mixinStandardHelpOptions = true, description = "IMPORT INTO of TPC-H CSV files vs MariaDB's LOAD DATA")
public final class ImportBenchmark implements Callable<Integer> {
    @Option(names = "--sf", defaultValue = "1", description = "scale factor (default: ${DEFAULT-VALUE})")
    double scaleFactor;

    @Option(names = "--stores", defaultValue = "3", description = "row stores of the in-process cluster (default: ${DEFAULT-VALUE})")
    int stores;

    @Option(names = "--threads", defaultValue = "2", description = "IMPORT INTO's THREAD option (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--mariadb", description = "also LOAD DATA the same files into a private MariaDB")
    boolean mariadb;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ImportBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        TpchData data = new TpchData(scaleFactor);
        Path root = Files.createTempDirectory("duet-import-bench");
        Path csv = root.resolve("csv");
        Files.createDirectories(csv);
        try (Closeable cleanup = () -> DataDirectories.delete(root)) {
            long started = System.nanoTime();
            Map<TpchTable, Long> rows = new LinkedHashMap<>();
            try (DuckDbReference reference = DuckDbReference.load(data, System.out)) {
                reference.exportCsv(data.tables(), csv);
            }
            for (TpchTable table : data.tables()) {
                // One line per row: TPC-H's text has no line breaks.
                try (var lines = Files.lines(csv.resolve(table.sqlName() + ".csv"))) {
                    rows.put(table, lines.count());
                }
            }
            long totalBytes = 0;
            for (TpchTable table : data.tables()) {
                totalBytes += Files.size(csv.resolve(table.sqlName() + ".csv"));
            }
            System.out.printf("csv: %d tables, %,d rows, %,d MiB written in %.1f s%n", rows.size(),
                    rows.values().stream().mapToLong(Long::longValue).sum(), totalBytes >> 20,
                    (System.nanoTime() - started) / 1e9);
            Map<String, Double> duet = importIntoDuet(root, data, csv, rows);
            Map<String, Double> maria = mariadb ? loadIntoMariaDb(data, csv, rows) : Map.of();
            print(rows, duet, maria);
        }
        return 0;
    }

    private Map<String, Double> importIntoDuet(Path root, TpchData data, Path csv, Map<TpchTable, Long> rows)
            throws Exception {
        Map<String, Double> seconds = new LinkedHashMap<>();
        try (LocalCluster cluster = new LocalCluster(root.resolve("cluster"), 1, config -> { }, config -> config
                .setBlockCacheSize(DataSize.ofMebibytes(256)).setReserveSpace(DataSize.ofMebibytes(256)))) {
            cluster.start(stores);
            try (SqlServer server = LocalSqlServers.start(cluster, config -> { })) {
                String url = "jdbc:mysql://" + server.address() + "/%s?user=root&useSSL=false&allowPublicKeyRetrieval=true";
                try (Connection connection = DriverManager.getConnection(String.format(url, "test"));
                        Statement statement = connection.createStatement()) {
                    statement.execute("CREATE DATABASE IF NOT EXISTS tpch");
                }
                try (Connection connection = DriverManager.getConnection(String.format(url, "tpch"));
                        Statement statement = connection.createStatement()) {
                    DataLoader.createSchema(connection, data.tables());
                    for (TpchTable table : data.tables()) {
                        long started = System.nanoTime();
                        String message;
                        statement.execute("IMPORT INTO " + table.sqlName() + " FROM '" + csv.resolve(table.sqlName() + ".csv")
                                + "' WITH SPLIT_FILE, THREAD=" + threads);
                        try (ResultSet result = statement.getResultSet()) {
                            result.next();
                            message = result.getString("Result_Message");
                        }
                        double elapsed = (System.nanoTime() - started) / 1e9;
                        seconds.put(table.sqlName(), elapsed);
                        long imported = checkCount(statement, table, rows.get(table));
                        System.out.printf("duetdb IMPORT INTO %-8s %,10d rows in %7.2f s = %,10.0f rows/s (%s)%n",
                                table.sqlName(), imported, elapsed, imported / elapsed, message);
                    }
                }
                long total = rows.values().stream().mapToLong(Long::longValue).sum();
                export(cluster, root.resolve("export-csv"), "csv", total);
                export(cluster, root.resolve("export-parquet"), "parquet", total);
            }
        }
        return seconds;
    }

    /** bin/duet export of the whole database, as users run it, timed. */
    private void export(LocalCluster cluster, Path directory, String format, long rows) {
        String placement = cluster.placement().clientAddresses().get(0).toString();
        long started = System.nanoTime();
        int exit = Main.commandLine().execute("export", "--pd", placement, "--database", "tpch", "--output",
                directory.toString(), "--threads", Integer.toString(threads), "--format", format);
        double elapsed = (System.nanoTime() - started) / 1e9;
        if (exit != 0) {
            throw new IllegalStateException("bin/duet export failed with exit status " + exit);
        }
        System.out.printf("duetdb export (%s): %,d rows in %.1f s = %,.0f rows/s%n", format, rows, elapsed,
                rows / elapsed);
    }

    private Map<String, Double> loadIntoMariaDb(TpchData data, Path csv, Map<TpchTable, Long> rows) throws Exception {
        Map<String, Double> seconds = new LinkedHashMap<>();
        PrivateMariaDb.Config config = new PrivateMariaDb.Config(DataSize.parse("2GiB"), Duration.ZERO, Duration.ofMinutes(2));
        try (PrivateMariaDb server = new PrivateMariaDb(config, System.out).start();
                Connection connection = DriverManager.getConnection(server.jdbcUrl(PrivateMariaDb.DATABASE)
                        + "&allowLoadLocalInfile=true");
                Statement statement = connection.createStatement()) {
            DataLoader.createSchema(connection, data.tables());
            for (TpchTable table : data.tables()) {
                long started = System.nanoTime();
                statement.execute("LOAD DATA LOCAL INFILE '" + csv.resolve(table.sqlName() + ".csv") + "' INTO TABLE "
                        + table.sqlName() + " FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"'");
                double elapsed = (System.nanoTime() - started) / 1e9;
                seconds.put(table.sqlName(), elapsed);
                long loaded = checkCount(statement, table, rows.get(table));
                System.out.printf("mariadb LOAD DATA   %-8s %,10d rows in %7.2f s = %,10.0f rows/s%n", table.sqlName(),
                        loaded, elapsed, loaded / elapsed);
            }
        }
        return seconds;
    }

    private static long checkCount(Statement statement, TpchTable table, long expected) throws SQLException {
        try (ResultSet result = statement.executeQuery("SELECT count(*) FROM " + table.sqlName())) {
            result.next();
            long count = result.getLong(1);
            if (count != expected) {
                throw new IllegalStateException(table.sqlName() + " holds " + count + " rows, expected " + expected);
            }
            return count;
        }
    }

    private static void print(Map<TpchTable, Long> rows, Map<String, Double> duet, Map<String, Double> maria) {
        long total = rows.values().stream().mapToLong(Long::longValue).sum();
        double duetSeconds = duet.values().stream().mapToDouble(Double::doubleValue).sum();
        System.out.printf("%nTOTAL duetdb IMPORT INTO: %,d rows in %.1f s = %,.0f rows/s%n", total, duetSeconds,
                total / duetSeconds);
        if (!maria.isEmpty()) {
            double mariaSeconds = maria.values().stream().mapToDouble(Double::doubleValue).sum();
            System.out.printf("TOTAL mariadb LOAD DATA:  %,d rows in %.1f s = %,.0f rows/s (duetdb/mariadb %.2fx)%n",
                    total, mariaSeconds, total / mariaSeconds, mariaSeconds / duetSeconds);
        }
    }
}
