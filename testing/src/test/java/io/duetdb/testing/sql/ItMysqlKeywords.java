package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;

/**
 * MySQL 8.0's whole keyword list through Connector/J: every word MySQL does not reserve names a database, a table, a
 * column and an alias unquoted; every reserved word is refused unquoted (1064) and accepted backquoted. Words that
 * mean something in expressions keep that meaning next to columns of the same name.
 */
class ItMysqlKeywords {
    /** Words per wide table: their columns are created, written and read in a few statements. */
    private static final int WORDS_PER_TABLE = 100;
    /** Connections creating the per-word databases and tables side by side (their schema waits overlap). */
    private static final int DDL_CONNECTIONS = 4;

    @TempDir
    static Path root;
    static LocalCluster cluster;
    static SqlServer server;
    static String url;

    record Keyword(String word, boolean reserved) {
    }

    @BeforeAll
    static void start() {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(1);
        server = SqlTesting.startServer(cluster, config -> config.setSchemaLease(Duration.ofMillis(100)));
        url = "jdbc:mysql://" + server.address() + "/test?user=root&useSSL=false&allowPublicKeyRetrieval=true";
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        cluster.close();
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
    }

    static List<Keyword> keywords(boolean reserved) throws IOException {
        List<Keyword> keywords = new ArrayList<>();
        try (InputStream in = ItMysqlKeywords.class.getResourceAsStream("/mysql/keywords-8.0.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.strip().split(" ");
                Keyword keyword = new Keyword(parts[0], parts.length > 1 && parts[1].equals("R"));
                if (keyword.reserved() == reserved) {
                    keywords.add(keyword);
                }
            }
        }
        return keywords;
    }

    @Test
    void theListIsMySqlsWhole80List() throws IOException {
        assertThat(keywords(false)).hasSize(490);
        assertThat(keywords(true)).hasSize(262).contains(new Keyword("SELECT", true), new Keyword("DUAL", true));
        assertThat(keywords(false)).contains(new Keyword("NO", false), new Keyword("OFFSET", false));
    }

    @Test
    void wordsMySqlDoesNotReserveNameColumnsAndAliasesUnquoted() throws Exception {
        List<String> failures = new ArrayList<>();
        List<String> words = keywords(false).stream().map(keyword -> keyword.word().toLowerCase(Locale.ROOT)).toList();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (int first = 0; first < words.size(); first += WORDS_PER_TABLE) {
                List<String> chunk = words.subList(first, Math.min(words.size(), first + WORDS_PER_TABLE));
                String table = "columns_" + first;
                statement.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, " + join(chunk, "%s INT") + ")");
                statement.execute("INSERT INTO " + table + " (id, " + String.join(", ", chunk) + ") VALUES (1, "
                        + join(range(chunk.size()), "%s") + ")");
                statement.execute("UPDATE " + table + " SET " + join(chunk, "%1$s = %1$s + 1000")
                        + " WHERE " + chunk.get(0) + " = 0");
                // Each column selected with its own name as alias, with AS and without; in WHERE, GROUP BY and ORDER BY.
                checkColumns(statement, "SELECT " + join(chunk, "%1$s AS %1$s") + " FROM " + table + " WHERE "
                        + join(chunk, "%1$s >= 1000", " AND "), chunk, failures);
                checkColumns(statement, "SELECT " + join(chunk, "t.%1$s %1$s") + " FROM " + table + " t GROUP BY "
                        + join(chunk, "t.%s") + " ORDER BY " + String.join(", ", chunk), chunk, failures);
            }
        }
        assertThat(failures).isEmpty();
    }

    /** The query's columns are labelled {@code words}, the i-th holding 1000 + i. */
    private static void checkColumns(Statement statement, String sql, List<String> words, List<String> failures)
            throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            ResultSetMetaData metadata = result.getMetaData();
            assertThat(result.next()).as(sql).isTrue();
            for (int i = 0; i < words.size(); i++) {
                if (!metadata.getColumnLabel(i + 1).equalsIgnoreCase(words.get(i)) || result.getInt(i + 1) != 1000 + i) {
                    failures.add(words.get(i) + ": column " + metadata.getColumnLabel(i + 1) + " = "
                            + result.getString(i + 1) + " in " + sql);
                }
            }
        }
    }

    @Test
    void wordsMySqlDoesNotReserveNameDatabasesTablesAndAliasesUnquoted() throws Exception {
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        List<String> words = keywords(false).stream().map(keyword -> keyword.word().toLowerCase(Locale.ROOT)).toList();
        forEachInParallel(words, (statement, word) -> {
            String w = word;
            try {
                statement.execute("CREATE DATABASE " + w);
                statement.execute("CREATE TABLE " + w + "." + w + " (" + w + " INT PRIMARY KEY, other INT)");
                statement.execute("INSERT INTO " + w + "." + w + " (" + w + ", other) VALUES (7, 8)");
                expect(statement, "SELECT " + w + "." + w + " AS " + w + " FROM " + w + "." + w + " AS " + w
                        + " WHERE " + w + "." + w + " = 7", w, "7", failures);
                expect(statement, "SELECT " + w + " " + w + " FROM " + w + "." + w + " " + w, w, "7", failures);
                // A derived table named by the word, as in FROM (SELECT ...) no.
                expect(statement, "SELECT " + w + ".other FROM (SELECT other FROM " + w + "." + w + ") " + w,
                        "other", "8", failures);
                statement.execute("USE " + w);
                expect(statement, "SELECT " + w + " FROM " + w, w, "7", failures);
                statement.execute("UPDATE " + w + " SET other = 9 WHERE " + w + " = 7");
                statement.execute("DELETE FROM " + w + " WHERE " + w + " = 7");
                statement.execute("USE test");
                // Dropped again: every statement after a schema change builds Calcite's view of all the tables.
                statement.execute("DROP DATABASE " + w);
            } catch (SQLException e) {
                failures.add(w + ": " + e.getErrorCode() + " " + e.getMessage());
            }
        });
        assertThat(failures).isEmpty();
    }

    private static void expect(Statement statement, String sql, String label, String value, List<String> failures)
            throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            String found = result.next() ? result.getString(1) : "no row";
            String foundLabel = result.getMetaData().getColumnLabel(1);
            if (!found.equals(value) || !foundLabel.equalsIgnoreCase(label)) {
                failures.add(sql + " gave " + foundLabel + " = " + found);
            }
        }
    }

    @Test
    void reservedWordsAreRefusedUnquotedAndAcceptedBackquoted() throws Exception {
        List<String> failures = new ArrayList<>();
        List<String> words = keywords(true).stream().map(keyword -> keyword.word().toLowerCase(Locale.ROOT)).toList();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String w : words) {
                for (String sql : List.of("CREATE DATABASE " + w, "CREATE TABLE " + w + " (a INT)",
                        "CREATE TABLE t (a INT, " + w + " INT)", "SELECT 1 AS " + w,
                        "SELECT x FROM (SELECT 1 AS x) AS " + w)) {
                    try {
                        statement.execute(sql);
                        failures.add(sql + " was accepted");
                    } catch (SQLException e) {
                        if (e.getErrorCode() != 1064 || !"42000".equals(e.getSQLState())) {
                            failures.add(sql + " failed with " + e.getErrorCode() + " " + e.getMessage());
                        }
                    }
                }
            }
            for (int first = 0; first < words.size(); first += WORDS_PER_TABLE) {
                List<String> chunk = words.subList(first, Math.min(words.size(), first + WORDS_PER_TABLE));
                String table = "reserved_" + first;
                statement.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, " + join(chunk, "`%s` INT") + ")");
                statement.execute("INSERT INTO " + table + " (id, " + join(chunk, "`%s`") + ") VALUES (1, "
                        + join(range(chunk.size()), "%s") + ")");
                statement.execute("UPDATE " + table + " SET " + join(chunk, "`%1$s` = `%1$s` + 1000"));
                checkColumns(statement, "SELECT " + join(chunk, "`t`.`%1$s` AS `%1$s`") + " FROM " + table
                        + " AS `t` WHERE " + join(chunk, "`%1$s` >= 1000", " AND "), chunk, failures);
            }
        }
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE reserved_names");
        }
        forEachInParallel(words, (statement, w) -> {
            try {
                statement.execute("CREATE TABLE reserved_names.`" + w + "` (`" + w + "` INT PRIMARY KEY)");
                statement.execute("INSERT INTO reserved_names.`" + w + "` VALUES (3)");
                expect(statement, "SELECT `" + w + "`.`" + w + "` AS `" + w + "` FROM reserved_names.`" + w + "` `" + w
                        + "`", w, "3", failures);
            } catch (SQLException e) {
                failures.add("`" + w + "`: " + e.getErrorCode() + " " + e.getMessage());
            }
        });
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE reserved_names");
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void wordsKeepTheirMeaningInExpressionsBesideColumnsOfTheSameName() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE meanings (id INT PRIMARY KEY, sum INT, min INT, max INT, count INT,"
                    + " avg INT, offset INT, percent INT, period INT, no INT, user VARCHAR(20), date DATE, value INT,"
                    + " year INT, interval_days INT, `interval` INT)");
            statement.execute("INSERT INTO meanings VALUES (1, 10, 1, 100, 3, 5, 0, 50, 7, 1, 'ann', '2020-01-01',"
                    + " 4, 2021, 1, 2), (2, 20, 2, 200, 4, 6, 1, 60, 8, 2, 'bob', '2020-02-01', 5, 2022, 2, 3)");
            assertThat(SqlTesting.rows(statement, "SELECT SUM(sum), MIN(min), MAX(max), COUNT(*), COUNT(count),"
                    + " AVG(avg) = 5.5, SUM(value) FROM meanings")).containsExactly("30|1|200|2|2|1|9");
            assertThat(SqlTesting.rows(statement, "SELECT user, USER() LIKE 'root@%', date, DATE '2020-01-01',"
                    + " date = DATE '2020-01-01' FROM meanings WHERE id = 1")).containsExactly("ann|1|2020-01-01|2020-01-01|1");
            assertThat(SqlTesting.rows(statement, "SELECT CASE WHEN no = 1 THEN 'one' ELSE 'other' END, date"
                    + " + INTERVAL interval_days DAY, `interval`, year, YEAR(date) FROM meanings ORDER BY id"))
                    .containsExactly("one|2020-01-02|2|2021|2020", "other|2020-02-03|3|2022|2020");
            assertThat(SqlTesting.rows(statement, "SELECT id FROM meanings ORDER BY id LIMIT 1 OFFSET 1"))
                    .containsExactly("2");
            assertThat(SqlTesting.rows(statement, "SELECT offset, percent, period FROM meanings ORDER BY id"))
                    .containsExactly("0|50|7", "1|60|8");
            // The driver's shape from the issue: derived tables named q and no.
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) cn FROM meanings dis, (SELECT id, sum FROM meanings)"
                    + " q, (SELECT id, max FROM meanings WHERE max > 150) no WHERE dis.id = q.id AND q.id = no.id"))
                    .containsExactly("1");
            assertThat(SqlTesting.rows(statement, "SELECT 1 FROM DUAL")).containsExactly("1");
            assertThatThrownBy(() -> statement.execute("SELECT interval FROM meanings"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1064));
        }
    }

    private interface WordWork {
        void run(Statement statement, String word) throws SQLException;
    }

    /** Runs {@code work} for every word, spread over {@link #DDL_CONNECTIONS} connections. */
    private static void forEachInParallel(List<String> words, WordWork work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(DDL_CONNECTIONS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int worker = 0; worker < DDL_CONNECTIONS; worker++) {
                int first = worker;
                done.add(pool.submit(() -> {
                    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                        for (int i = first; i < words.size(); i += DDL_CONNECTIONS) {
                            work.run(statement, words.get(i));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<String> range(int count) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            values.add(String.valueOf(i));
        }
        return values;
    }

    private static String join(List<String> words, String format) {
        return join(words, format, ", ");
    }

    private static String join(List<String> words, String format, String separator) {
        List<String> parts = new ArrayList<>();
        for (String word : words) {
            parts.add(String.format(Locale.ROOT, format, word));
        }
        return String.join(separator, parts);
    }
}
