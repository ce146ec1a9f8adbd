package io.duetdb.benchmarks.sql;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.net.LoopbackPorts;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.sql.server.SqlServerConfig;
import io.duetdb.testing.LocalCluster;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import io.duetdb.benchmarks.common.DataDirectories;

/**
 * Calibrates the access path cost factors: times the same range query through a secondary index (with its double
 * read) and through a scan of the records, at several selectivities, and prints the seek factor (in bytes scanned)
 * that would make the cost model's crossover match the measured one. The paths are forced through the session's
 * factors: a seek factor of 0 makes the index path cheaper below about 80% of the rows, and a huge one makes the
 * scan cheaper always.
 */
@Command(name = "access", mixinStandardHelpOptions = true,
        description = "Index range with double read versus record scan: times and the implied seek factor.")
public final class AccessPathBenchmark implements Callable<Integer> {
    private static final int BUCKETS = 1_000;

    @Option(names = "--rows", defaultValue = "50000", description = "rows in the table (default: ${DEFAULT-VALUE})")
    int rows;

    @Option(names = "--fractions", defaultValue = "0.001,0.01,0.05,0.1,0.3",
            description = "fractions of the rows the range selects (default: ${DEFAULT-VALUE})", split = ",")
    double[] fractions;

    @Option(names = "--runs", defaultValue = "5", description = "runs per query and path; medians reported")
    int runs;

    public static void main(String[] args) {
        System.exit(new CommandLine(new AccessPathBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path root = Files.createTempDirectory("duet-access-bench");
        LoopbackPorts ports = new LoopbackPorts();
        try (LocalCluster cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
                SqlServer server = new SqlServer(new SqlServerConfig()
                        .setPd(cluster.placement().clientAddresses())
                        .setAddress(new HostAndPort("127.0.0.1", ports.allocate()))
                        .setStatusAddress(new HostAndPort("127.0.0.1", ports.allocate()))).start();
                Connection connection = DriverManager.getConnection("jdbc:mysql://" + server.address()
                        + "/test?user=root&useSSL=false");
                Statement statement = connection.createStatement()) {
            load(statement);
            double tupleBytes = measuredTupleBytes(statement);
            System.out.printf(Locale.ROOT, "%n%10s %10s %14s %14s %10s%n", "fraction", "rows", "index ms", "scan ms",
                    "ratio");
            List<double[]> indexTimings = new ArrayList<>();
            double scanMillisTotal = 0;
            for (double fraction : fractions) {
                int bucketLimit = Math.max(1, (int) Math.round(fraction * BUCKETS));
                String query = "SELECT SUM(amount), COUNT(*) FROM accesses WHERE bucket < " + bucketLimit;
                statement.execute("SET duet_opt_seek_factor = 0");
                double indexMillis = medianMillis(statement, query, "index accesses_by_bucket range");
                statement.execute("SET duet_opt_seek_factor = 1e15");
                double scanMillis = medianMillis(statement, query, "cheaper than index");
                long selected = (long) rows * bucketLimit / BUCKETS;
                System.out.printf(Locale.ROOT, "%10.4f %10d %14.1f %14.1f %10.2f%n", fraction, selected, indexMillis,
                        scanMillis, indexMillis / scanMillis);
                indexTimings.add(new double[] {selected, indexMillis});
                scanMillisTotal += scanMillis;
            }
            // The index path's time per selected row is the slope of a least-squares line through its timings; the
            // scan's per table row is its mean time over the rows. In the model (f_scan = 1) the index path costs
            // S_index + S_tuple + f_seek per row and the scan S_tuple per table row.
            double slope = slope(indexTimings);
            double scanPerRow = scanMillisTotal / fractions.length / rows;
            double seekFactor = tupleBytes * slope / scanPerRow - tupleBytes - (19 + 8 + 8);
            System.out.printf(Locale.ROOT, "%naverage tuple %.0f bytes; index path %.4f ms per row selected, scan %.5f ms"
                    + " per table row: implied duet_opt_seek_factor %.0f (default %.0f)%n", tupleBytes, slope, scanPerRow,
                    seekFactor, io.duetdb.sql.exec.ScanCostModel.DEFAULT.seekFactor());
        } finally {
            DataDirectories.delete(root);
        }
        return 0;
    }

    private static double slope(List<double[]> points) {
        double meanX = points.stream().mapToDouble(point -> point[0]).average().orElse(0);
        double meanY = points.stream().mapToDouble(point -> point[1]).average().orElse(0);
        double covariance = 0;
        double variance = 0;
        for (double[] point : points) {
            covariance += (point[0] - meanX) * (point[1] - meanY);
            variance += (point[0] - meanX) * (point[0] - meanX);
        }
        return variance == 0 ? Double.NaN : covariance / variance;
    }

    private void load(Statement statement) throws SQLException {
        statement.execute("CREATE TABLE accesses (id BIGINT PRIMARY KEY, bucket INT, amount INT, note VARCHAR(60),"
                + " KEY accesses_by_bucket (bucket))");
        long started = System.nanoTime();
        int batch = 1_000;
        for (int first = 1; first <= rows; first += batch) {
            StringBuilder insert = new StringBuilder("INSERT INTO accesses VALUES ");
            for (int id = first; id < first + batch && id <= rows; id++) {
                // Buckets spread over the key space, so an index range reads handles in random order.
                insert.append(id > first ? "," : "").append('(').append(id).append(',')
                        .append(Math.floorMod(id * 7919L, BUCKETS)).append(',').append(id % 97)
                        .append(",'access note number ").append(id).append(" padded to a typical width')");
            }
            statement.execute(insert.toString());
            if ((first / batch) % 10 == 0) {
                System.out.printf("loaded %d of %d rows%n", Math.min(rows, first + batch - 1), rows);
            }
        }
        System.out.printf(Locale.ROOT, "loaded %d rows in %.1f s; analyzing%n", rows, (System.nanoTime() - started) / 1e9);
        statement.execute("ANALYZE TABLE accesses");
    }

    private static double measuredTupleBytes(Statement statement) throws SQLException {
        double bytes = 19;
        try (ResultSet result = statement.executeQuery("SHOW STATS_HISTOGRAMS")) {
            while (result.next()) {
                if (result.getString("Table_name").equals("accesses")) {
                    bytes += result.getDouble("Avg_col_size");
                }
            }
        }
        return bytes;
    }

    /** The median of --runs timings, after checking EXPLAIN shows the path expected. */
    private double medianMillis(Statement statement, String query, String expectedPath) throws SQLException {
        StringBuilder plan = new StringBuilder();
        try (ResultSet result = statement.executeQuery("EXPLAIN " + query)) {
            while (result.next()) {
                plan.append(result.getString(5)).append('\n');
            }
        }
        if (!plan.toString().contains(expectedPath)) {
            throw new IllegalStateException("the plan does not take the path expected (" + expectedPath + "):\n" + plan);
        }
        double[] millis = new double[runs];
        for (int run = 0; run < runs; run++) {
            long started = System.nanoTime();
            try (ResultSet result = statement.executeQuery(query)) {
                result.next();
            }
            millis[run] = (System.nanoTime() - started) / 1e6;
        }
        Arrays.sort(millis);
        return millis[runs / 2];
    }

}
