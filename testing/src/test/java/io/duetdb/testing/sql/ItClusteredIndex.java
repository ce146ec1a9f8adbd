package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.keys.Keys;
import io.duetdb.sql.catalog.Catalog;

/**
 * Clustered primary keys of other than one integer column (TiDB's common handle), through Connector/J: the rows
 * are keyed by the primary key's values, so a table holds one key per row and key lookups read no index. Every
 * query runs against a NONCLUSTERED twin with the same rows too, which must answer the same.
 */
class ItClusteredIndex {
    private static final int WAREHOUSES = 3;
    private static final int ITEMS = 40;

    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(3);

    @BeforeAll
    static void start() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()); Statement statement = connection.createStatement()) {
            for (String table : List.of("stock", "stock_plain")) {
                statement.execute("CREATE TABLE " + table + " (s_w_id INT NOT NULL, s_i_id INT NOT NULL,"
                        + " s_quantity INT NOT NULL, s_data VARCHAR(20), s_code VARCHAR(8),"
                        + " PRIMARY KEY (s_w_id, s_i_id)" + (table.equals("stock") ? "" : " NONCLUSTERED")
                        + ", KEY s_quantity_index (s_quantity), UNIQUE KEY s_code_index (s_code))");
                for (int w = 1; w <= WAREHOUSES; w++) {
                    int warehouse = w;
                    SqlTesting.insertRows(statement, table, 1, ITEMS, i -> warehouse + "," + i + ","
                            + (i * 7 % 23) + ",'data-" + warehouse + "-" + i + "','c" + warehouse + "_" + i + "'");
                }
            }
        }
    }

    @Test
    void theDefaultAndTheKeywordsDecideTheClustering() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()); Statement statement = connection.createStatement()) {
            assertThat(createText(statement, "stock")).contains("PRIMARY KEY (`s_w_id`,`s_i_id`) /*T![clustered_index] CLUSTERED */");
            assertThat(createText(statement, "stock_plain")).contains("/*T![clustered_index] NONCLUSTERED */");
            statement.execute("CREATE TABLE named (name VARCHAR(20) PRIMARY KEY, n INT)");
            assertThat(createText(statement, "named")).contains("/*T![clustered_index] CLUSTERED */");
            statement.execute("SET tidb_enable_clustered_index = INT_ONLY");
            statement.execute("CREATE TABLE int_only (a INT, b INT, PRIMARY KEY (a, b))");
            statement.execute("CREATE TABLE int_only_clustered (a INT, b INT, PRIMARY KEY (a, b) CLUSTERED)");
            statement.execute("CREATE TABLE int_key (a INT PRIMARY KEY, b INT)");
            assertThat(createText(statement, "int_only")).contains("NONCLUSTERED");
            assertThat(createText(statement, "int_only_clustered")).contains("/*T![clustered_index] CLUSTERED */");
            assertThat(createText(statement, "int_key")).contains("/*T![clustered_index] CLUSTERED */");
            statement.execute("SET tidb_enable_clustered_index = OFF");
            statement.execute("CREATE TABLE int_key_off (a INT PRIMARY KEY, b INT)");
            assertThat(createText(statement, "int_key_off")).contains("NONCLUSTERED");
            // TiDB's tools read the layout from information_schema.TABLES.
            assertThat(SqlTesting.rows(statement, "SELECT TABLE_NAME, TIDB_PK_TYPE FROM information_schema.TABLES"
                    + " WHERE TABLE_NAME IN ('int_key', 'int_key_off', 'named') ORDER BY TABLE_NAME"))
                    .containsExactly("int_key|CLUSTERED", "int_key_off|NONCLUSTERED", "named|CLUSTERED");
            // CLUSTERED and NONCLUSTERED are not reserved: they name columns and tables.
            statement.execute("CREATE TABLE clustered (nonclustered INT PRIMARY KEY NONCLUSTERED, clustered INT)");
            statement.execute("INSERT INTO clustered VALUES (1, 2)");
            assertThat(SqlTesting.rows(statement, "SELECT clustered FROM clustered WHERE nonclustered = 1"))
                    .containsExactly("2");
        }
    }

    @Test
    void aClusteredTableHoldsOneKeyPerRowAndNoPrimaryKeyEntries() {
        try (PlacementClient placement = sqlCluster.cluster().newPlacementClient(); TxnClient client = new TxnClient(placement);
                Catalog catalog = new Catalog(client, Duration.ofSeconds(1));
                Transaction transaction = client.begin()) {
            TableInfo stock = catalog.infoSchema(transaction).table("test", "stock").orElseThrow();
            assertThat(stock.commonHandle()).isTrue();
            long primaryId = stock.primaryKey().orElseThrow().id();
            assertThat(transaction.scan(Keys.indexPrefix(stock.id(), primaryId), Keys.indexEnd(stock.id(), primaryId), 10))
                    .isEmpty();
            assertThat(transaction.scan(Keys.recordPrefix(stock.id()), Keys.recordEnd(stock.id()), 1000))
                    .hasSize(WAREHOUSES * ITEMS);
            TableInfo plain = catalog.infoSchema(transaction).table("test", "stock_plain").orElseThrow();
            long plainPrimaryId = plain.primaryKey().orElseThrow().id();
            assertThat(transaction.scan(Keys.indexPrefix(plain.id(), plainPrimaryId),
                    Keys.indexEnd(plain.id(), plainPrimaryId), 1000)).hasSize(WAREHOUSES * ITEMS);
        }
        assertThat(IndexConsistency.check(sqlCluster.cluster(), "test", "stock", "s_quantity_index")).isEmpty();
        assertThat(IndexConsistency.check(sqlCluster.cluster(), "test", "stock", "s_code_index")).isEmpty();
    }

    @Test
    void keyPathsReadTheRecordsAndAnswerAsTheNonclusteredTwin() throws SQLException {
        List<String> queries = List.of(
                "SELECT * FROM %s WHERE s_w_id = 2 AND s_i_id = 7",
                "SELECT s_i_id, s_quantity FROM %s WHERE (s_w_id, s_i_id) IN ((1,1),(3,40),(2,2),(9,9),(1,1))",
                "SELECT s_i_id FROM %s WHERE s_w_id = 2 AND s_i_id IN (7, 5, 6, 100)",
                "SELECT s_i_id, s_data FROM %s WHERE s_w_id = 3",
                "SELECT s_i_id FROM %s WHERE s_w_id = 1 AND s_i_id BETWEEN 10 AND 14",
                "SELECT s_i_id FROM %s WHERE s_w_id = 1 AND s_i_id > 35",
                "SELECT s_w_id, s_i_id FROM %s WHERE s_w_id >= 2 AND s_i_id = 3",
                "SELECT s_w_id, count(*), sum(s_quantity) FROM %s WHERE s_w_id < 3 GROUP BY s_w_id",
                "SELECT s_i_id FROM %s WHERE s_w_id = 2 ORDER BY s_i_id DESC LIMIT 3",
                "SELECT min(s_i_id) FROM %s WHERE s_w_id = 3 AND s_quantity > 10",
                "SELECT s_w_id, s_i_id FROM %s WHERE s_quantity = 14",
                "SELECT s_w_id, s_i_id FROM %s WHERE s_code IN ('c2_5', 'c3_40', 'none')",
                "SELECT s_w_id, s_i_id FROM %s WHERE s_w_id = 1 AND s_i_id = 2.5",
                "SELECT count(*) FROM %s",
                "SELECT a.s_i_id, b.s_quantity FROM %1$s a JOIN %1$s b ON b.s_w_id = 2 AND b.s_i_id = a.s_i_id"
                        + " WHERE a.s_w_id = 1 AND a.s_i_id < 6",
                "SELECT a.s_i_id, count(*), sum(b.s_quantity) FROM %1$s a JOIN %1$s b ON b.s_w_id = a.s_i_id"
                        + " WHERE a.s_w_id = 1 AND a.s_i_id < 3 GROUP BY a.s_i_id");
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()); Statement statement = connection.createStatement()) {
            for (String query : queries) {
                List<String> clustered = SqlTesting.rows(statement, String.format(query, "stock"));
                List<String> plain = SqlTesting.rows(statement, String.format(query, "stock_plain"));
                assertThat(clustered).as(query).containsExactlyInAnyOrderElementsOf(plain);
                assertThat(clustered.isEmpty()).as(query).isEqualTo(query.contains("2.5"));
            }
            assertThat(plan(statement, "SELECT * FROM stock WHERE s_w_id = 2 AND s_i_id = 7"))
                    .contains("Point_Get").contains("clustered index:PRIMARY(s_w_id, s_i_id)");
            assertThat(plan(statement, "SELECT * FROM stock WHERE (s_w_id, s_i_id) IN ((1,1),(2,2))"))
                    .contains("Batch_Point_Get").contains("clustered index:PRIMARY(s_w_id, s_i_id)");
            assertThat(plan(statement, "SELECT * FROM stock WHERE s_w_id = 1 AND s_i_id > 35"))
                    .contains("TableRangeScan").doesNotContain("IndexRangeScan");
            // Index lookup joins read the inner rows by their clustered keys: whole keys by batch gets, prefixes by
            // ranges of records.
            assertThat(String.join("\n", SqlTesting.rows(statement, "EXPLAIN ANALYZE SELECT a.s_i_id, b.s_quantity FROM"
                    + " stock a JOIN stock b ON b.s_w_id = 2 AND b.s_i_id = a.s_i_id WHERE a.s_w_id = 1 AND a.s_i_id < 6")))
                    .contains("IndexJoin").contains("through index PRIMARY lookups");
            assertThat(String.join("\n", SqlTesting.rows(statement, "EXPLAIN ANALYZE SELECT count(*) FROM stock a JOIN"
                    + " stock b ON b.s_w_id = a.s_i_id WHERE a.s_w_id = 1 AND a.s_i_id < 3")))
                    .contains("IndexJoin").contains("through index PRIMARY lookups");
            // An ORDER BY of the key's next column with a LIMIT stops each region's scan after the rows kept.
            String first = "SELECT s_i_id FROM stock WHERE s_w_id = 3 ORDER BY s_i_id LIMIT 2";
            assertThat(SqlTesting.rows(statement, first)).containsExactly("1", "2");
            List<String> analyzed = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + first);
            assertThat(analyzed).as(String.join("\n", analyzed)).anySatisfy(line -> assertThat(line).contains("Limit|")
                    .contains("limit 2 per region"));
            String scan = analyzed.stream().filter(line -> line.contains("TableRangeScan")).findFirst().orElseThrow();
            assertThat(Long.parseLong(scan.split("\\|", -1)[2])).as(scan).isLessThan(ITEMS);
        }
    }

    @Test
    void writesKeepBothTablesAlike() throws SQLException {
        Random random = new Random(20261126);
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()); Statement statement = connection.createStatement()) {
            for (String table : List.of("stock", "stock_plain")) {
                statement.execute("CREATE TABLE " + table + "_w LIKE " + table);
            }
            assertThat(createText(statement, "stock_w")).contains("/*T![clustered_index] CLUSTERED */");
            for (int round = 0; round < 60; round++) {
                int w = 1 + random.nextInt(3);
                int i = 1 + random.nextInt(12);
                int q = random.nextInt(50);
                String sql = switch (random.nextInt(6)) {
                    case 0 -> "INSERT INTO %s VALUES (" + w + "," + i + "," + q + ",'r" + round + "','k" + (q % 9) + "')";
                    case 1 -> "UPDATE %s SET s_quantity = s_quantity + 1 WHERE s_w_id = " + w + " AND s_i_id <= " + i;
                    case 2 -> "UPDATE %s SET s_i_id = s_i_id + 20 WHERE s_w_id = " + w + " AND s_i_id = " + i;
                    case 3 -> "DELETE FROM %s WHERE s_w_id = " + w + " AND s_i_id IN (" + i + ", " + (i + 1) + ")";
                    case 4 -> "REPLACE INTO %s VALUES (" + w + "," + i + "," + q + ",'p" + round + "','k" + (q % 9) + "')";
                    default -> "INSERT INTO %s VALUES (" + w + "," + i + "," + q + ",'d" + round + "',NULL)"
                            + " ON DUPLICATE KEY UPDATE s_quantity = s_quantity * 2, s_data = VALUES(s_data)";
                };
                List<String> outcomes = new ArrayList<>();
                for (String table : List.of("stock_w", "stock_plain_w")) {
                    try {
                        outcomes.add("ok " + statement.executeUpdate(String.format(sql, table)));
                    } catch (SQLException e) {
                        outcomes.add(e.getErrorCode() + " " + e.getMessage().replace(table + ".", ""));
                    }
                }
                assertThat(outcomes.get(0)).as(sql).isEqualTo(outcomes.get(1));
            }
            String all = "SELECT * FROM %s ORDER BY s_w_id, s_i_id";
            assertThat(SqlTesting.rows(statement, String.format(all, "stock_w")))
                    .isEqualTo(SqlTesting.rows(statement, String.format(all, "stock_plain_w")));
            assertThat(IndexConsistency.check(sqlCluster.cluster(), "test", "stock_w", "s_quantity_index")).isEmpty();
            assertThat(IndexConsistency.check(sqlCluster.cluster(), "test", "stock_w", "s_code_index")).isEmpty();
            statement.execute("INSERT INTO stock_w VALUES (9, 9, 1, 'x', NULL)");
            assertThatThrownBy(() -> statement.execute("INSERT INTO stock_w VALUES (9, 9, 2, 'y', NULL)"))
                    .isInstanceOf(SQLException.class)
                    .hasMessage("Duplicate entry '9-9' for key 'stock_w.PRIMARY'")
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1062));
            // An index added to a clustered table is backfilled from its records.
            statement.execute("CREATE INDEX s_data_index ON stock_w (s_data)");
            assertThat(IndexConsistency.check(sqlCluster.cluster(), "test", "stock_w", "s_data_index")).isEmpty();
            assertThat(SqlTesting.rows(statement, "SELECT s_w_id, s_i_id FROM stock_w WHERE s_data = 'x'"))
                    .containsExactly("9|9");
        }
    }

    @Test
    void preparedLockingReadsOnTheClusteredKey() throws Exception {
        try (Connection first = DriverManager.getConnection(sqlCluster.url() + "&useServerPrepStmts=true");
                Connection second = DriverManager.getConnection(sqlCluster.url())) {
            first.setAutoCommit(false);
            second.setAutoCommit(false);
            try (PreparedStatement lock = first.prepareStatement(
                    "SELECT s_quantity FROM stock WHERE s_w_id = ? AND s_i_id = ? FOR UPDATE")) {
                lock.setInt(1, 3);
                lock.setInt(2, 11);
                assertThat(SqlTesting.rows(lock.executeQuery())).containsExactly(String.valueOf(11 * 7 % 23));
            }
            try (Statement other = second.createStatement()) {
                assertThatThrownBy(() -> other.executeQuery(
                        "SELECT * FROM stock WHERE s_w_id = 3 AND s_i_id = 11 FOR UPDATE NOWAIT"))
                        .isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(3572));
                assertThat(SqlTesting.rows(other, "SELECT s_i_id FROM stock WHERE s_w_id = 3 AND s_i_id BETWEEN 10 AND 12"
                        + " FOR UPDATE SKIP LOCKED")).containsExactly("10", "12");
            }
            second.rollback();
            // Outside a transaction a locking read is a transaction of its own, as in MySQL: NOWAIT refuses a held
            // row at once, SKIP LOCKED passes it by, and its own locks go when it ends.
            try (Connection autocommit = DriverManager.getConnection(sqlCluster.url()); Statement other = autocommit.createStatement()) {
                CompletableFuture<Integer> refused = CompletableFuture.supplyAsync(() -> {
                    try {
                        other.executeQuery("SELECT * FROM stock WHERE s_w_id = 3 AND s_i_id = 11 FOR UPDATE NOWAIT");
                        return 0;
                    } catch (SQLException e) {
                        return e.getErrorCode();
                    }
                });
                assertThat(refused.get(10, TimeUnit.SECONDS)).isEqualTo(3572);
                assertThat(SqlTesting.rows(other, "SELECT s_i_id FROM stock WHERE s_w_id = 3 AND s_i_id IN (11, 13)"
                        + " FOR UPDATE SKIP LOCKED")).containsExactly("13");
                first.rollback();
                assertThat(SqlTesting.rows(other, "SELECT s_i_id FROM stock WHERE s_w_id = 3 AND s_i_id = 11"
                        + " FOR UPDATE NOWAIT")).containsExactly("11");
                assertThat(SqlTesting.rows(other, "SELECT s_i_id FROM stock WHERE s_w_id = 3 AND s_i_id = 11"
                        + " FOR UPDATE NOWAIT")).containsExactly("11");
            }
        }
    }

    private static String createText(Statement statement, String table) throws SQLException {
        return SqlTesting.rows(statement, "SHOW CREATE TABLE " + table).get(0);
    }

    private static String plan(Statement statement, String query) throws SQLException {
        return String.join("\n", SqlTesting.rows(statement, "EXPLAIN " + query));
    }
}
