package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.common.keys.Keys;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;

/** The rows of dropped and truncated tables leave the stores once the GC safe point has passed the drop. */
class ItDroppedTableData {
    @TempDir
    Path root;

    @Test
    void droppedAndTruncatedTablesDataIsDestroyedAfterTheSafePointAndRenamedTablesKeepTheirs() throws Exception {
        // A GC life time short enough for a quick test, long enough that no statement of a loaded machine outlives it.
        try (LocalCluster cluster = new LocalCluster(root, 1, config -> config.setGcLifeTime(Duration.ofSeconds(8))
                .setScheduleInterval(Duration.ofMillis(300)), config -> config.setGcRunInterval(Duration.ofMillis(300)))
                .start(3);
                SqlServer server = SqlTesting.startServer(cluster, config -> config
                        .setDroppedTableCheckInterval(Duration.ofMillis(300)));
                Connection connection = DriverManager.getConnection("jdbc:mysql://" + server.address()
                        + "/test?user=root&useSSL=false");
                Statement statement = connection.createStatement();
                PlacementClient placement = cluster.newPlacementClient();
                TxnClient client = new TxnClient(placement)) {
            for (String table : new String[] {"dropped", "truncated", "renamed"}) {
                statement.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, v VARCHAR(10), KEY by_v (v))");
                statement.executeUpdate("INSERT INTO " + table + " VALUES (1, 'a'), (2, 'b'), (3, 'c')");
            }
            long dropped = tableId(statement, "dropped");
            long truncated = tableId(statement, "truncated");
            long renamed = tableId(statement, "renamed");
            assertThat(keysOf(client, dropped)).isEqualTo(6);
            statement.execute("DROP TABLE dropped");
            statement.execute("TRUNCATE TABLE truncated");
            statement.execute("RENAME TABLE renamed TO kept");
            LocalCluster.await("dropped tables' data destroyed", Duration.ofSeconds(60),
                    () -> keysOf(client, dropped) == 0 && keysOf(client, truncated) == 0);
            // The collector counts a table once its catalog record is gone, a moment after the keys are.
            LocalCluster.await("both destructions counted", Duration.ofSeconds(30),
                    () -> SqlTesting.metric(server, "duet_sql_dropped_tables_destroyed_total") == 2);
            assertThat(keysOf(client, renamed)).isEqualTo(6);
            assertThat(SqlTesting.rows(statement, "SELECT v FROM kept ORDER BY id")).containsExactly("a", "b", "c");
            statement.executeUpdate("INSERT INTO truncated VALUES (9, 'z')");
            assertThat(SqlTesting.rows(statement, "SELECT v FROM truncated")).containsExactly("z");
        }
    }

    private static long tableId(Statement statement, String table) throws SQLException {
        try (ResultSet result = statement.executeQuery("SELECT TIDB_TABLE_ID FROM information_schema.tables"
                + " WHERE table_schema = 'test' AND table_name = '" + table + "'")) {
            assertThat(result.next()).as("table %s", table).isTrue();
            return result.getLong(1);
        }
    }

    /** Row and index keys of the table readable at the latest snapshot (the data, whatever the catalog says). */
    private static int keysOf(TxnClient client, long tableId) {
        try (Transaction transaction = client.begin()) {
            return transaction.scan(Keys.tablePrefix(tableId), Keys.tableEnd(tableId), 1_000).size();
        }
    }
}
