package io.duetdb.spark;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.sql.server.SqlServerConfig;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.LocalSqlServers;
import io.duetdb.testing.SqlRows;

/** An in-process cluster with a SQL server and a local SparkSession whose duet catalog points at it. */
final class SparkTesting {
    private SparkTesting() {
    }

    static SqlServer startServer(LocalCluster cluster, Consumer<SqlServerConfig> customise) {
        return LocalSqlServers.start(cluster, customise);
    }

    static String jdbcUrl(SqlServer server, String database) {
        return "jdbc:mysql://" + server.address() + "/" + database + "?user=root&useSSL=false&allowPublicKeyRetrieval=true";
    }

    static String placement(LocalCluster cluster) {
        return String.join(",", cluster.placement().clientAddresses().stream().map(HostAndPort::toString).toList());
    }

    static SparkSession spark(LocalCluster cluster) {
        return SparkSession.builder().master("local[2]").appName("duet-connector-test")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "4")
                .config("spark.sql.catalog.duet", DuetCatalog.class.getName())
                .config("spark.sql.catalog.duet.pd", placement(cluster))
                .getOrCreate();
    }

    /** Inserts rows {@code from..to} in statements of 500 rows, each row's values from {@code values}. */
    static void insertRows(Statement statement, String table, int from, int to, IntFunction<String> values)
            throws SQLException {
        for (int start = from; start <= to; start += 500) {
            StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" VALUES ");
            for (int i = start; i <= Math.min(to, start + 499); i++) {
                sql.append(i > start ? ", " : "").append('(').append(values.apply(i)).append(')');
            }
            statement.execute(sql.toString());
        }
    }

    static List<String> rows(Statement statement, String sql) throws SQLException {
        return SqlRows.of(statement, sql);
    }

    /** Spark rows as their values' text joined by '|' (null as "null"). */
    static List<String> rows(List<Row> result) {
        List<String> rows = new ArrayList<>();
        for (Row row : result) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < row.length(); i++) {
                text.append(i > 0 ? "|" : "").append(row.isNullAt(i) ? "null" : String.valueOf(row.get(i)));
            }
            rows.add(text.toString());
        }
        return rows;
    }
}
