package io.duetdb.testing.sql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import io.duetdb.sql.server.SqlServer;
import io.duetdb.sql.server.SqlServerConfig;
import io.duetdb.store.StoreServer;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.LocalSqlServers;
import io.duetdb.testing.SqlRows;

/** What the SQL integration tests share: a SQL server on a test cluster, and rows as text. */
final class SqlTesting {

    private SqlTesting() {
    }

    /** A started SQL server for {@code cluster} on free loopback ports, with a short schema lease. */
    static SqlServer startServer(LocalCluster cluster, Consumer<SqlServerConfig> customise) {
        return LocalSqlServers.start(cluster, customise);
    }

    /**
     * The sum of a metric's samples on the server's status port, over the samples that carry every one of
     * {@code labels} (written as {@code name="value"}).
     */
    static double metric(SqlServer server, String name, String... labels) {
        return metric(String.valueOf(server.statusAddress()), name, labels);
    }

    /** A counter summed over the cluster's running stores (their /metrics), for the samples with all the labels. */
    static double storeMetric(LocalCluster cluster, String name, String... labels) {
        double total = 0;
        for (int i = 0; i < cluster.storeCount(); i++) {
            Optional<StoreServer> store = cluster.store(i);
            if (store.isPresent()) {
                total += metric(String.valueOf(store.get().statusAddress()), name, labels);
            }
        }
        return total;
    }

    /** The body of an HTTP GET. */
    static String httpGet(String url) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** As {@link #metric(SqlServer, String, String...)} for any component's status address. */
    static double metric(String statusAddress, String name, String... labels) {
        String text = httpGet("http://" + statusAddress + "/metrics");
        double total = 0;
        for (String line : text.split("\n")) {
            if (!line.startsWith(name + "{") && !line.startsWith(name + " ")) {
                continue;
            }
            boolean matches = true;
            for (String label : labels) {
                matches &= line.contains(label);
            }
            if (matches) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    /** One multi-row INSERT of rows {@code first} to {@code last}, each row's values written by {@code values}. */
    static void insertRows(Statement statement, String table, int first, int last,
            java.util.function.IntFunction<String> values) throws SQLException {
        StringBuilder insert = new StringBuilder("INSERT INTO ").append(table).append(" VALUES ");
        for (int i = first; i <= last; i++) {
            insert.append(i > first ? "," : "").append('(').append(values.apply(i)).append(')');
        }
        statement.execute(insert.toString());
    }

    /** Each row of a query as its columns' text joined by '|'. */
    static List<String> rows(Statement statement, String sql) throws SQLException {
        return rows(statement.executeQuery(sql));
    }

    /**
     * As {@link #rows(Statement, String)} for statements Connector/J's executeQuery refuses (ADMIN, IMPORT INTO,
     * SHOW it does not know): run with execute(), then read.
     */
    static List<String> executedRows(Statement statement, String sql) throws SQLException {
        statement.execute(sql);
        return rows(statement.getResultSet());
    }

    /** Each row of a result as its columns' text joined by '|'; closes the result. */
    static List<String> rows(ResultSet result) throws SQLException {
        return SqlRows.of(result);
    }
}
