package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Views through Connector/J as MySQL 8.0 has them: CREATE [OR REPLACE] / ALTER / DROP VIEW, views in FROM, joins,
 * sub-queries and other views (expanded into their queries at plan time, so filters reach the tables they read),
 * their metadata (SHOW [FULL] TABLES, SHOW CREATE VIEW, DESCRIBE, information_schema.TABLES, VIEWS and COLUMNS),
 * MySQL's errors, and the privileges a view asks for.
 */
class ItViews {
    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(1);

    @BeforeAll
    static void start() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE parts (id INT PRIMARY KEY, kind VARCHAR(10) NOT NULL, price DECIMAL(10,2),"
                    + " qty INT)");
            statement.execute("INSERT INTO parts VALUES (1, 'bolt', 0.50, 100), (2, 'nut', 0.20, 300),"
                    + " (3, 'bolt', 0.75, 40), (4, 'gear', 12.00, 5), (5, 'nut', 0.25, NULL)");
            statement.execute("CREATE TABLE kinds (kind VARCHAR(10) PRIMARY KEY, label VARCHAR(20))");
            statement.execute("INSERT INTO kinds VALUES ('bolt', 'Bolts'), ('nut', 'Nuts'), ('gear', 'Gears')");
        }
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection(sqlCluster.url());
    }

    private static List<String> rows(Statement statement, String sql) throws SQLException {
        return SqlTesting.rows(statement, sql);
    }

    private static int errorOf(Statement statement, String sql) {
        try {
            statement.execute(sql);
        } catch (SQLException e) {
            return e.getErrorCode();
        }
        return 0;
    }

    @Test
    void viewsAreReadInFromJoinsSubQueriesAndOtherViews() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE VIEW cheap AS SELECT id, kind, price * qty AS stock_value FROM parts"
                    + " WHERE price < 1");
            assertThat(rows(statement, "SELECT * FROM cheap ORDER BY id"))
                    .containsExactly("1|bolt|50.00", "2|nut|60.00", "3|bolt|30.00", "5|nut|null");
            assertThat(rows(statement, "SELECT c.id, k.label FROM cheap c JOIN kinds k ON k.kind = c.kind"
                    + " WHERE c.stock_value > 40 ORDER BY c.id")).containsExactly("1|Bolts", "2|Nuts");
            assertThat(rows(statement, "SELECT label FROM kinds WHERE kind IN (SELECT kind FROM cheap) ORDER BY label"))
                    .containsExactly("Bolts", "Nuts");
            assertThat(rows(statement, "SELECT kind, COUNT(*) FROM cheap GROUP BY kind ORDER BY kind"))
                    .containsExactly("bolt|2", "nut|2");
            // A column list names the columns; a view reads another view.
            statement.execute("CREATE VIEW bolt_values (part, value) AS SELECT id, stock_value FROM cheap"
                    + " WHERE kind = 'bolt'");
            assertThat(rows(statement, "SELECT part, value FROM bolt_values ORDER BY part"))
                    .containsExactly("1|50.00", "3|30.00");
            try (ResultSet result = statement.executeQuery("SELECT * FROM bolt_values")) {
                assertThat(result.getMetaData().getColumnLabel(1)).isEqualTo("part");
                assertThat(result.getMetaData().getColumnLabel(2)).isEqualTo("value");
            }
            // Prepared statements read views too.
            try (PreparedStatement prepared = connection.prepareStatement(
                    "SELECT value FROM bolt_values WHERE part = ?")) {
                prepared.setInt(1, 3);
                try (ResultSet result = prepared.executeQuery()) {
                    assertThat(result.next()).isTrue();
                    assertThat(result.getString(1)).isEqualTo("30.00");
                }
            }
            // OR REPLACE and ALTER give a view a new query.
            statement.execute("CREATE OR REPLACE VIEW cheap AS SELECT id, kind, price FROM parts WHERE price < 0.3");
            assertThat(rows(statement, "SELECT id FROM cheap ORDER BY id")).containsExactly("2", "5");
            statement.execute("ALTER VIEW cheap (id, kind, price) AS SELECT id, kind, price FROM parts WHERE qty IS NULL");
            assertThat(rows(statement, "SELECT id, kind FROM cheap")).containsExactly("5|nut");
            // A view whose query no longer works is MySQL's 1356; bolt_values reads cheap's stock_value.
            assertThat(errorOf(statement, "SELECT * FROM bolt_values")).isEqualTo(1356);
            statement.execute("DROP VIEW bolt_values, cheap");
            assertThat(errorOf(statement, "SELECT * FROM cheap")).isEqualTo(1146);
            statement.execute("DROP VIEW IF EXISTS cheap");
            assertThat(statement.getWarnings().getMessage()).isEqualTo("Unknown table 'test.cheap'");
        }
    }

    @Test
    void columnsAreNamedAsMySqlNamesThem() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE VIEW named AS SELECT id, price * 2, kind AS k, UPPER(kind) FROM parts");
            List<String> labels = new ArrayList<>();
            try (ResultSet result = statement.executeQuery("SELECT * FROM named WHERE id = 1")) {
                for (int i = 1; i <= result.getMetaData().getColumnCount(); i++) {
                    labels.add(result.getMetaData().getColumnLabel(i));
                }
            }
            assertThat(labels).containsExactly("id", "price * 2", "k", "UPPER(kind)");
            assertThat(rows(statement, "SELECT `price * 2` FROM named WHERE k = 'gear'")).containsExactly("24.00");
            assertThat(rows(statement, "DESCRIBE named")).extracting(line -> line.split("\\|")[0])
                    .containsExactly("id", "price * 2", "k", "UPPER(kind)");
            statement.execute("DROP VIEW named");
        }
    }

    @Test
    void mySqlsErrorsForViews() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(errorOf(statement, "CREATE VIEW v AS SELECT * FROM missing")).isEqualTo(1146);
            assertThat(errorOf(statement, "CREATE VIEW v AS SELECT nope FROM parts")).isEqualTo(1054);
            assertThat(errorOf(statement, "CREATE VIEW v (a, b) AS SELECT id FROM parts")).isEqualTo(1353);
            assertThat(errorOf(statement, "CREATE VIEW v AS SELECT id, id FROM parts")).isEqualTo(1060);
            assertThat(errorOf(statement, "CREATE VIEW parts AS SELECT 1")).isEqualTo(1050);
            assertThat(errorOf(statement, "CREATE OR REPLACE VIEW parts AS SELECT 1")).isEqualTo(1347);
            assertThat(errorOf(statement, "ALTER VIEW v AS SELECT 1")).isEqualTo(1146);
            assertThat(errorOf(statement, "DROP VIEW parts")).isEqualTo(1347);
            assertThat(errorOf(statement, "DROP VIEW v")).isEqualTo(1051);
            statement.execute("CREATE VIEW v AS SELECT id, qty FROM parts");
            assertThat(errorOf(statement, "CREATE VIEW v AS SELECT 1")).isEqualTo(1050);
            assertThat(errorOf(statement, "CREATE TABLE v (a INT)")).isEqualTo(1050);
            assertThat(errorOf(statement, "DROP TABLE v")).isEqualTo(1051);
            assertThat(errorOf(statement, "INSERT INTO v VALUES (9, 9)")).isEqualTo(1471);
            assertThat(errorOf(statement, "UPDATE v SET qty = 1")).isEqualTo(1288);
            assertThat(errorOf(statement, "DELETE FROM v WHERE id = 1")).isEqualTo(1288);
            assertThat(errorOf(statement, "ALTER TABLE v ADD COLUMN c INT")).isEqualTo(1347);
            assertThat(errorOf(statement, "CREATE INDEX by_qty ON v (qty)")).isEqualTo(1347);
            assertThat(errorOf(statement, "SHOW CREATE VIEW parts")).isEqualTo(1347);
            // A view cannot read itself, directly or through another view.
            statement.execute("CREATE VIEW w AS SELECT id FROM v");
            assertThat(errorOf(statement, "CREATE OR REPLACE VIEW v AS SELECT id, id AS qty FROM w")).isEqualTo(1462);
            assertThat(rows(statement, "SELECT COUNT(*) FROM w")).containsExactly("5");
            statement.execute("DROP VIEW w, v");
            // Reserved words are refused as view names unquoted, and parse errors are 1064.
            assertThat(errorOf(statement, "CREATE VIEW select AS SELECT 1")).isEqualTo(1064);
            assertThat(errorOf(statement, "CREATE VIEW v AS 1 + 1")).isEqualTo(1064);
        }
    }

    @Test
    void viewsAppearInMetadataAsMySqlShowsThem() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE shop");
            statement.execute("USE shop");
            statement.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20))");
            statement.execute("CREATE ALGORITHM = MERGE SQL SECURITY INVOKER VIEW item_names (item) AS SELECT name"
                    + " FROM items WITH CHECK OPTION");
            assertThat(rows(statement, "SHOW TABLES")).containsExactly("item_names", "items");
            assertThat(rows(statement, "SHOW FULL TABLES")).containsExactly("item_names|VIEW", "items|BASE TABLE");
            assertThat(rows(statement, "SELECT TABLE_NAME, TABLE_TYPE, ENGINE, TABLE_COMMENT FROM"
                    + " information_schema.TABLES WHERE TABLE_SCHEMA = 'shop' ORDER BY TABLE_NAME"))
                    .containsExactly("item_names|VIEW|null|VIEW", "items|BASE TABLE|InnoDB|");
            assertThat(rows(statement, "SELECT TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, VIEW_DEFINITION, CHECK_OPTION,"
                    + " IS_UPDATABLE, DEFINER, SECURITY_TYPE, CHARACTER_SET_CLIENT, COLLATION_CONNECTION"
                    + " FROM information_schema.VIEWS WHERE TABLE_SCHEMA = 'shop'"))
                    .containsExactly("def|shop|item_names|SELECT name FROM items|CASCADED|NO|root@%|INVOKER|utf8mb4"
                            + "|utf8mb4_bin");
            assertThat(rows(statement, "SELECT COLUMN_NAME, DATA_TYPE FROM information_schema.COLUMNS"
                    + " WHERE TABLE_NAME = 'item_names'")).containsExactly("item|varchar");
            try (ResultSet result = statement.executeQuery("SHOW CREATE VIEW item_names")) {
                assertThat(result.getMetaData().getColumnLabel(1)).isEqualTo("View");
                assertThat(result.getMetaData().getColumnLabel(2)).isEqualTo("Create View");
                assertThat(result.getMetaData().getColumnLabel(3)).isEqualTo("character_set_client");
                assertThat(result.getMetaData().getColumnLabel(4)).isEqualTo("collation_connection");
                assertThat(result.next()).isTrue();
                assertThat(result.getString(1)).isEqualTo("item_names");
                assertThat(result.getString(2)).isEqualTo("CREATE ALGORITHM=MERGE DEFINER=`root`@`%` SQL SECURITY INVOKER"
                        + " VIEW `item_names` (`item`) AS SELECT name FROM items WITH CASCADED CHECK OPTION");
                assertThat(result.getString(3)).isEqualTo("utf8mb4");
            }
            // SHOW CREATE VIEW's statement creates the same view again.
            String create = rows(statement, "SHOW CREATE TABLE item_names").get(0).split("\\|")[1];
            statement.execute("DROP VIEW item_names");
            statement.execute(create);
            assertThat(rows(statement, "SHOW COLUMNS FROM item_names")).containsExactly("item|varchar(20)|YES||null|");
            statement.execute("INSERT INTO items VALUES (1, 'x')");
            assertThat(rows(statement, "SELECT item FROM item_names")).containsExactly("x");
            statement.execute("DROP DATABASE shop");
            statement.execute("USE test");
        }
    }

    @Test
    void filtersOnAViewReachTheTableItReads() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE VIEW priced AS SELECT id, kind, price FROM parts WHERE price IS NOT NULL");
            List<String> plan = new ArrayList<>();
            try (ResultSet result = statement.executeQuery("EXPLAIN SELECT kind FROM priced WHERE id = 3")) {
                while (result.next()) {
                    plan.add(result.getString(1) + "|" + result.getString(4) + "|" + result.getString(5));
                }
            }
            // A point get on the base table's key, with the view's condition: the view is gone from the plan.
            assertThat(plan).anyMatch(line -> line.contains("table:parts") && line.contains("point get"));
            assertThat(plan).noneMatch(line -> line.contains("priced"));
            assertThat(rows(statement, "SELECT kind FROM priced WHERE id = 3")).containsExactly("bolt");
            statement.execute("DROP VIEW priced");
        }
    }

    @Test
    void aViewAsksForTheSelectPrivilegeOnItselfAndItsDefinerForTheTables() throws SQLException {
        String base = "jdbc:mysql://" + sqlCluster.server().address() + "/%s?useSSL=false&allowPublicKeyRetrieval=true";
        try (Connection root = connect(); Statement admin = root.createStatement()) {
            admin.execute("CREATE DATABASE secure");
            admin.execute("CREATE TABLE secure.salaries (id INT PRIMARY KEY, name VARCHAR(10), pay INT)");
            admin.execute("INSERT INTO secure.salaries VALUES (1, 'ann', 100), (2, 'bob', 200)");
            admin.execute("CREATE VIEW secure.names AS SELECT id, name FROM secure.salaries");
            admin.execute("CREATE SQL SECURITY INVOKER VIEW secure.invoker_names AS SELECT id, name FROM secure.salaries");
            admin.execute("CREATE USER 'reader'@'%' IDENTIFIED BY 'r'");
            admin.execute("GRANT SELECT ON secure.names TO 'reader'@'%'");
            admin.execute("GRANT SELECT ON secure.invoker_names TO 'reader'@'%'");
            try (Connection reader = DriverManager.getConnection(String.format(base, "secure"), "reader", "r");
                    Statement statement = reader.createStatement()) {
                assertThat(rows(statement, "SELECT name FROM names ORDER BY id")).containsExactly("ann", "bob");
                assertThat(errorOf(statement, "SELECT pay FROM salaries")).isEqualTo(1142);
                // SQL SECURITY INVOKER: the reader needs the table too.
                assertThat(errorOf(statement, "SELECT name FROM invoker_names")).isEqualTo(1142);
                assertThat(errorOf(statement, "CREATE VIEW mine AS SELECT id FROM names")).isEqualTo(1142);
                admin.execute("GRANT CREATE ON secure.* TO 'reader'@'%'");
                assertThat(errorOf(statement, "CREATE VIEW pays AS SELECT pay FROM salaries")).isEqualTo(1142);
                statement.execute("CREATE VIEW mine AS SELECT id FROM names");
                // Creating a view gives no privilege on it.
                assertThat(errorOf(statement, "SELECT COUNT(*) FROM mine")).isEqualTo(1142);
                admin.execute("GRANT SELECT ON secure.mine TO 'reader'@'%'");
                assertThat(rows(statement, "SELECT COUNT(*) FROM mine")).containsExactly("2");
                assertThat(errorOf(statement, "CREATE DEFINER = root@'%' VIEW theirs AS SELECT id FROM names"))
                        .isEqualTo(1227);
            }
            admin.execute("DROP USER 'reader'@'%'");
            admin.execute("DROP DATABASE secure");
        }
    }
}
