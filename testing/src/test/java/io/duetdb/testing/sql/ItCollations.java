package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Text compared by utf8mb4_general_ci, utf8mb4_unicode_ci and utf8mb4_0900_ai_ci, per column, per table and per
 * expression (COLLATE): comparisons, IN, LIKE, ranges, ORDER BY, GROUP BY, DISTINCT, joins and unique keys,
 * through Connector/J. Where a private MariaDB can run here it answers the same statements (it has the first two
 * collations; utf8mb4_0900_ai_ci is MySQL 8.0's, whose answers are written down).
 */
class ItCollations {
    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(1);
    @RegisterExtension
    static final MariaDbAnswers mariaDb = new MariaDbAnswers(sqlCluster);

    @BeforeAll
    static void start() throws Exception {
        answers().onBoth("CREATE TABLE people (id INT PRIMARY KEY, name VARCHAR(20) COLLATE utf8mb4_general_ci,"
                        + " title VARCHAR(20) COLLATE utf8mb4_unicode_ci, tag VARCHAR(10) COLLATE utf8mb4_bin,"
                        + " UNIQUE KEY by_name (name))",
                "INSERT INTO people VALUES (1, 'Alice', 'Straße', 'x'), (2, 'bob', 'strasse', 'X'),"
                        + " (3, 'Émile', 'résumé', 'y'), (4, 'carol ', 'RESUME', 'z'), (5, 'dave', 'Zoë', 'x')");
    }

    private static SharedAnswers answers() {
        return mariaDb.answers();
    }

    @Test
    void comparisonsIgnoreCaseAccentsAndTrailingSpaces() throws Exception {
        SharedAnswers answers = answers();
        answers.assertShared("SELECT id FROM people WHERE name = 'ALICE'", "1");
        answers.assertShared("SELECT id FROM people WHERE name = 'emile'", "3");
        answers.assertShared("SELECT id FROM people WHERE name = 'CAROL'", "4");
        answers.assertShared("SELECT id FROM people WHERE name IN ('BOB', 'Dave') ORDER BY id", "2", "5");
        answers.assertShared("SELECT id FROM people WHERE name LIKE 'a%' OR name LIKE '%MIL%' ORDER BY id", "1", "3");
        answers.assertShared("SELECT id FROM people WHERE name BETWEEN 'B' AND 'c' ORDER BY id", "2");
        answers.assertShared("SELECT id FROM people WHERE name > 'CAROL' ORDER BY id", "3", "5");
        answers.assertShared("SELECT id FROM people WHERE title = 'STRASSE' ORDER BY id", "1", "2");
        answers.assertShared("SELECT COUNT(*) FROM people WHERE tag = 'X'", "1");
        answers.assertShared("SELECT COUNT(*) FROM people WHERE tag COLLATE utf8mb4_general_ci = 'X'", "3");
        answers.assertShared("SELECT COUNT(*) FROM people WHERE name = 'alice' COLLATE utf8mb4_bin", "0");
    }

    @Test
    void literalsCompareByTheConnectionCollationUnlessCollated() throws Exception {
        // TiDB's collation_connection is utf8mb4_bin (MariaDB's is not: DuetDB only).
        try (Connection connection = DriverManager.getConnection(sqlCluster.url());
                Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SELECT 'a' COLLATE utf8mb4_general_ci = 'A', 'a' = 'A',"
                    + " 'Ä' = 'a' COLLATE utf8mb4_unicode_ci, 'x' COLLATE 'utf8mb4_0900_ai_ci' = 'X'"))
                    .containsExactly("1|0|1|1");
        }
    }

    @Test
    void sortsGroupsAndDistinctByTheCollation() throws Exception {
        SharedAnswers answers = answers();
        answers.assertShared("SELECT id FROM people ORDER BY name", "1", "2", "4", "5", "3");
        answers.assertShared("SELECT id FROM people ORDER BY name DESC LIMIT 2", "3", "5");
        answers.assertShared("SELECT COUNT(DISTINCT title), COUNT(DISTINCT tag) FROM people", "3|4");
        answers.assertShared("SELECT COUNT(*) FROM (SELECT DISTINCT title FROM people) t", "3");
        answers.assertShared("SELECT COUNT(*) c FROM people GROUP BY title ORDER BY c", "1", "2", "2");
        answers.assertShared("SELECT COUNT(*) FROM (SELECT title FROM people UNION SELECT 'STRASSE') u", "3");
        answers.assertShared("SELECT LOWER(name) FROM people WHERE id < 3 UNION ALL SELECT 'x' ORDER BY 1",
                "alice", "bob", "x");
    }

    @Test
    void functionsCompareAndSearchByTheCollation() throws Exception {
        SharedAnswers answers = answers();
        // Binary order would answer strasse, résumé and CAROL; binary matching 1, 'Alice', 0, 0 and 0.
        answers.assertShared("SELECT MAX(title), MIN(title) FROM people WHERE id IN (1, 2, 5)", "Zoë|Straße");
        answers.assertShared("SELECT MAX(title) FROM people WHERE id IN (1, 3)", "Straße");
        answers.assertShared("SELECT tag, MAX(title) FROM people GROUP BY tag ORDER BY tag", "X|strasse", "x|Zoë",
                "y|résumé", "z|RESUME");
        answers.assertShared("SELECT LEAST(name, 'CAROL'), GREATEST(name, 'CAROL') FROM people WHERE id = 2", "bob|CAROL");
        answers.assertShared("SELECT STRCMP(name, 'ALICE'), NULLIF(name, 'ALICE'), FIELD(name, 'BOB', 'ALICE'),"
                + " FIND_IN_SET(name, 'BOB,ALICE') FROM people WHERE id = 1", "0|null|2|2");
        answers.assertShared("SELECT LOCATE('LI', name), INSTR(name, 'LI'), POSITION('LI' IN name), LOCATE('LI', name, 3)"
                + " FROM people WHERE id = 1", "2|2|2|0");
        answers.assertShared("SELECT STRCMP(tag, 'X'), LOCATE('X', tag) FROM people WHERE id = 1", "1|0");
        answers.assertShared("SELECT id, RANK() OVER (ORDER BY title), COUNT(*) OVER (PARTITION BY title) FROM people"
                + " ORDER BY id", "1|3|2", "2|3|2", "3|1|2", "4|1|2", "5|5|1");
        answers.assertShared("SELECT name FROM people WHERE id < 4 INTERSECT SELECT 'ALICE'", "Alice");
        answers.assertShared("SELECT name FROM people EXCEPT SELECT 'BOB' EXCEPT SELECT 'emile' ORDER BY name", "Alice",
                "carol ", "dave");
    }

    @Test
    void uniqueKeysAreUniqueUnderTheCollation() throws Exception {
        SharedAnswers answers = answers();
        answers.assertError("INSERT INTO people VALUES (9, 'ALICE', 'q', 'q')", 1062, "23000",
                "Duplicate entry 'ALICE' for key 'people.by_name'");
        answers.onBoth("CREATE TABLE codes (code VARCHAR(10) PRIMARY KEY, hits INT) COLLATE utf8mb4_general_ci",
                "INSERT INTO codes VALUES ('abc', 1), ('Émile', 1)",
                "INSERT INTO codes VALUES ('ABC', 5) ON DUPLICATE KEY UPDATE hits = hits + VALUES(hits)");
        answers.assertShared("SELECT code, hits FROM codes WHERE code = 'aBc'", "abc|6");
        answers.assertShared("SELECT c.code, p.id FROM codes c JOIN people p ON c.code = p.name", "Émile|3");
        answers.onBoth("UPDATE codes SET hits = 0 WHERE code = 'EMILE'", "DELETE FROM codes WHERE code = 'ABC'");
        answers.assertShared("SELECT code, hits FROM codes", "Émile|0");
        try (Connection connection = DriverManager.getConnection(sqlCluster.url());
                Statement statement = connection.createStatement()) {
            assertThat(String.join("\n", SqlTesting.rows(statement, "EXPLAIN SELECT * FROM codes WHERE code = 'EMILE'")))
                    .contains("Point_Get");
            assertThat(String.join("\n", SqlTesting.rows(statement, "EXPLAIN SELECT id FROM people WHERE name = 'ALICE'")))
                    .contains("Point_Get");
            assertThat(SqlTesting.rows(statement, "SHOW CREATE TABLE codes").get(0))
                    .contains("`code` varchar(10) NOT NULL,").contains("COLLATE=utf8mb4_general_ci");
            try (PreparedStatement lookup = connection.prepareStatement("SELECT id FROM people WHERE name = ?")) {
                lookup.setString(1, "BOB");
                assertThat(SqlTesting.rows(lookup.executeQuery())).containsExactly("2");
            }
        }
    }

    @Test
    void mysql80sCollationAndErrors() throws Exception {
        SharedAnswers answers = answers();
        try (Connection connection = DriverManager.getConnection(sqlCluster.url());
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE words (w VARCHAR(20) PRIMARY KEY) DEFAULT CHARSET=utf8mb4"
                    + " COLLATE=utf8mb4_0900_ai_ci");
            statement.execute("INSERT INTO words VALUES ('résumé'), ('a b'), ('ab')");
            assertThat(SqlTesting.rows(statement, "SELECT w FROM words WHERE w = 'RESUME'")).containsExactly("résumé");
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM words WHERE w = 'ab '")).containsExactly("0");
            assertThat(SqlTesting.rows(statement, "SELECT COLLATION_NAME FROM information_schema.COLUMNS"
                    + " WHERE TABLE_NAME = 'words'")).containsExactly("utf8mb4_0900_ai_ci");
            assertThat(SqlTesting.rows(statement, "SHOW COLLATION LIKE 'utf8mb4_0900%'"))
                    .containsExactly("utf8mb4_0900_ai_ci|utf8mb4|255||Yes|1|NO PAD");
        }
        answers.onBoth("CREATE DATABASE shop COLLATE utf8mb4_unicode_ci",
                "CREATE TABLE shop.tags (name VARCHAR(20) PRIMARY KEY)", "INSERT INTO shop.tags VALUES ('Straße')");
        answers.assertShared("SELECT name FROM shop.tags WHERE name = 'STRASSE'", "Straße");
        answers.assertShared("SELECT DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'",
                "utf8mb4_unicode_ci");
        // ALTER DATABASE changes the default of tables created later; those made before keep theirs.
        answers.onBoth("ALTER DATABASE shop DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci",
                "CREATE TABLE shop.codes (code VARCHAR(10) PRIMARY KEY)", "INSERT INTO shop.codes VALUES ('abc')");
        answers.assertShared("SELECT DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'",
                "utf8mb4_general_ci");
        answers.assertShared("SELECT code FROM shop.codes WHERE code = 'ABC'", "abc");
        answers.assertShared("SELECT TABLE_NAME, COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'shop'"
                + " ORDER BY TABLE_NAME", "codes|utf8mb4_general_ci", "tags|utf8mb4_unicode_ci");
        answers.assertError("CREATE TABLE bad (a VARCHAR(5) COLLATE utf8mb4_nonesuch)", 1273, "HY000",
                "Unknown collation: 'utf8mb4_nonesuch'");
        answers.assertError("SELECT id FROM people WHERE name = title", 1267, "HY000",
                "Illegal mix of collations (utf8mb4_general_ci,IMPLICIT) and (utf8mb4_unicode_ci,IMPLICIT) for"
                        + " operation '='");
        answers.assertShared("SELECT COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_NAME = 'people'"
                + " ORDER BY ORDINAL_POSITION", "null", "utf8mb4_general_ci", "utf8mb4_unicode_ci", "utf8mb4_bin");
    }
}
