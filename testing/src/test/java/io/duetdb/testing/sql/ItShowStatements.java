package io.duetdb.testing.sql;

import static io.duetdb.testing.sql.SqlTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SHOW statements as GUI tools, ORMs and drivers send them, through Connector/J: every form in the grammar, LIKE on
 * the first column, WHERE over the columns as shown, and the information_schema tables behind the server's facts.
 */
class ItShowStatements {
    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(1);

    @BeforeAll
    static void createObjects() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url());
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE shop");
            statement.execute("CREATE TABLE shop.items (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL UNIQUE,"
                    + " price DECIMAL(8,2), KEY by_price (price)) COMMENT 'what we sell'");
            statement.execute("CREATE TABLE shop.orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, item INT)");
            statement.execute("CREATE VIEW shop.cheap AS SELECT id, name FROM shop.items WHERE price < 10");
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(sqlCluster.url().replace("/test?", "/shop?"));
    }

    @Test
    void listingsAreFilteredByLikeAndByWhereOverTheirColumns() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(rows(statement, "SHOW TABLES")).containsExactlyInAnyOrder("cheap", "items", "orders");
            assertThat(rows(statement, "SHOW FULL TABLES FROM shop WHERE Table_type = 'VIEW'"))
                    .containsExactly("cheap|VIEW");
            assertThat(rows(statement, "SHOW FULL TABLES IN shop LIKE 'i%'")).containsExactly("items|BASE TABLE");
            assertThat(rows(statement, "SHOW DATABASES WHERE `Database` LIKE 'sho%'")).containsExactly("shop");
            assertThat(rows(statement, "SHOW SCHEMAS LIKE 'SHOP'")).containsExactly("shop");
            assertThat(rows(statement, "SHOW COLUMNS FROM items WHERE `Key` = 'PRI' OR `Null` = 'YES'"))
                    .containsExactly("id|int|NO|PRI|null|", "price|decimal(8,2)|YES|MUL|null|");
            assertThat(rows(statement, "SHOW FULL FIELDS IN items FROM shop LIKE 'n%'"))
                    .containsExactly("name|varchar(20)|utf8mb4_bin|NO|UNI|null||select,insert,update,references|");
            assertThat(rows(statement, "SHOW INDEX FROM shop.items WHERE Key_name = 'by_price'"))
                    .singleElement().asString().startsWith("items|1|by_price|1|price|");
            assertThat(rows(statement, "SHOW KEYS IN items WHERE Non_unique = 0")).hasSize(2);
            assertThat(rows(statement, "DESCRIBE items name")).containsExactly("name|varchar(20)|NO|UNI|null|");
            assertThat(rows(statement, "SHOW VARIABLES WHERE Variable_name IN ('autocommit', 'max_allowed_packet')"))
                    .hasSize(2);
            assertThat(rows(statement, "SHOW GLOBAL VARIABLES LIKE 'autocommit'")).containsExactly("autocommit|1");
            assertThat(rows(statement, "SHOW SESSION STATUS WHERE Variable_name = 'Threads_connected'")).hasSize(1);
        }
    }

    @Test
    void tableStatusListsTablesAndViews() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("SHOW TABLE STATUS LIKE 'items'");
            try (var result = statement.getResultSet()) {
                assertThat(result.next()).isTrue();
                assertThat(result.getString("Name")).isEqualTo("items");
                assertThat(result.getString("Engine")).isEqualTo("InnoDB");
                assertThat(result.getString("Collation")).isEqualTo("utf8mb4_bin");
                assertThat(result.getString("Comment")).isEqualTo("what we sell");
                assertThat(result.next()).isFalse();
            }
            assertThat(rows(statement, "SHOW TABLE STATUS FROM shop WHERE Comment = 'VIEW'"))
                    .singleElement().asString().startsWith("cheap|null|");
            assertThat(rows(statement, "SHOW TABLE STATUS WHERE Engine = 'InnoDB'")).hasSize(2);
        }
    }

    @Test
    void serverFactsAndObjectsDuetDbHasNoneOf() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(rows(statement, "SHOW TRIGGERS")).isEmpty();
            assertThat(rows(statement, "SHOW PROCEDURE STATUS WHERE Db = 'shop'")).isEmpty();
            assertThat(rows(statement, "SHOW FUNCTION STATUS")).isEmpty();
            assertThat(rows(statement, "SHOW EVENTS FROM shop")).isEmpty();
            assertThat(rows(statement, "SHOW STORAGE ENGINES")).singleElement().asString().startsWith("InnoDB|DEFAULT|");
            assertThat(rows(statement, "SHOW COLLATION WHERE Charset = 'utf8mb4'"))
                    .containsExactly("utf8mb4_bin|utf8mb4|46|Yes|Yes|1|PAD SPACE",
                            "utf8mb4_general_ci|utf8mb4|45||Yes|1|PAD SPACE",
                            "utf8mb4_unicode_ci|utf8mb4|224||Yes|1|PAD SPACE",
                            "utf8mb4_0900_ai_ci|utf8mb4|255||Yes|1|NO PAD");
            assertThat(rows(statement, "SHOW CHARSET LIKE 'utf8%'")).containsExactly("utf8mb4|UTF-8 Unicode|utf8mb4_bin|4");
            assertThat(rows(statement, "SELECT COLLATION_NAME FROM information_schema.COLLATIONS"
                    + " WHERE CHARACTER_SET_NAME = 'utf8mb4'")).containsExactly("utf8mb4_bin", "utf8mb4_general_ci",
                    "utf8mb4_unicode_ci", "utf8mb4_0900_ai_ci");
            assertThat(rows(statement, "SELECT DEFAULT_COLLATE_NAME FROM information_schema.CHARACTER_SETS"
                    + " WHERE CHARACTER_SET_NAME = 'utf8mb4'")).containsExactly("utf8mb4_bin");
            assertThat(rows(statement, "SELECT SUPPORT FROM information_schema.ENGINES")).containsExactly("DEFAULT");

            statement.execute("CREATE USER 'clerk'@'%' IDENTIFIED BY 'pw'");
            statement.execute("GRANT SELECT, INSERT ON shop.* TO 'clerk'@'%'");
            statement.execute("GRANT UPDATE ON shop.items TO 'clerk'@'%'");
            assertThat(rows(statement, "SELECT PRIVILEGE_TYPE FROM information_schema.USER_PRIVILEGES"
                    + " WHERE GRANTEE = '''clerk''@''%'''")).containsExactly("USAGE");
            assertThat(rows(statement, "SELECT TABLE_SCHEMA, PRIVILEGE_TYPE FROM information_schema.SCHEMA_PRIVILEGES"
                    + " WHERE GRANTEE = '''clerk''@''%''' ORDER BY 2")).containsExactly("shop|INSERT", "shop|SELECT");
            assertThat(rows(statement, "SELECT TABLE_NAME, PRIVILEGE_TYPE, IS_GRANTABLE FROM"
                    + " information_schema.TABLE_PRIVILEGES WHERE GRANTEE = '''clerk''@''%'''"))
                    .containsExactly("items|UPDATE|NO");
        }
    }

    @Test
    void performanceSchemaAndProcessListShowTheServerAsTheSessionSeesIt() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(rows(statement, "SHOW DATABASES LIKE 'performance%'")).containsExactly("performance_schema");
            assertThat(rows(statement, "SHOW TABLES FROM performance_schema")).contains("session_variables",
                    "global_variables", "session_status", "global_status", "processlist");
            statement.execute("SET sql_mode = 'ANSI_QUOTES'");
            assertThat(rows(statement, "SELECT VARIABLE_VALUE FROM performance_schema.session_variables"
                    + " WHERE VARIABLE_NAME = 'sql_mode'")).containsExactly("ANSI_QUOTES");
            assertThat(rows(statement, "SELECT VARIABLE_VALUE FROM performance_schema.global_variables"
                    + " WHERE VARIABLE_NAME = 'sql_mode'")).singleElement().asString().contains("STRICT_TRANS_TABLES");
            statement.execute("SET sql_mode = DEFAULT");
            assertThat(rows(statement, "SELECT VARIABLE_NAME FROM performance_schema.global_status"
                    + " WHERE VARIABLE_NAME LIKE 'Threads%'")).containsExactly("Threads_connected");
            long id = Long.parseLong(rows(statement, "SELECT CONNECTION_ID()").get(0));
            assertThat(rows(statement, "SELECT USER, DB, COMMAND, INFO FROM information_schema.PROCESSLIST"
                    + " WHERE ID = " + id)).containsExactly("root|shop|Query|SELECT USER, DB, COMMAND, INFO FROM"
                    + " information_schema.PROCESSLIST WHERE ID = " + id);
            assertThat(rows(statement, "SELECT COUNT(*) FROM performance_schema.processlist WHERE ID = " + id))
                    .containsExactly("1");
            // Connector/J's DatabaseMetaData.getSQLKeywords() (which Hibernate asks) reads MySQL's keyword list.
            assertThat(rows(statement, "SELECT WORD, RESERVED FROM information_schema.KEYWORDS"
                    + " WHERE WORD IN ('SELECT', 'USER') ORDER BY WORD")).containsExactly("SELECT|1", "USER|0");
            assertThat(connection.getMetaData().getSQLKeywords()).contains("ACCESSIBLE");
            // Accounts without privileges read the variables, and see only their own connections.
            statement.execute("CREATE USER 'watcher'@'%' IDENTIFIED BY 'pw'");
            try (Connection watcher = DriverManager.getConnection(sqlCluster.url()
                    .replace("/test?user=root", "/?user=watcher&password=pw"));
                    Statement watching = watcher.createStatement()) {
                assertThat(rows(watching, "SELECT COUNT(*) FROM performance_schema.session_variables"
                        + " WHERE VARIABLE_NAME = 'autocommit'")).containsExactly("1");
                assertThat(rows(watching, "SELECT DISTINCT USER FROM information_schema.PROCESSLIST"))
                        .containsExactly("watcher");
            }
        }
    }

    @Test
    void badShowStatementsGetMySqlErrors() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> statement.executeQuery("SHOW TABLES WHERE nosuch = 1"))
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("errorCode", 1054);
            assertThatThrownBy(() -> statement.executeQuery("SHOW COLUMNS FROM nosuch"))
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("errorCode", 1146);
            assertThatThrownBy(() -> statement.executeQuery("SHOW TABLES FROM nosuch"))
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("errorCode", 1049);
            assertThatThrownBy(() -> statement.executeQuery("SHOW TRIGGERS FROM nosuch"))
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("errorCode", 1049);
            assertThatThrownBy(() -> statement.executeQuery("SHOW CREATE VIEW items"))
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("errorCode", 1347);
            assertThatThrownBy(() -> statement.executeQuery("SHOW BOGUS"))
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("errorCode", 1064);
        }
    }
}
