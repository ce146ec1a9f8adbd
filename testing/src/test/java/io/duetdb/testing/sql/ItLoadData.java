package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * LOAD DATA [LOCAL] INFILE through Connector/J: the client's file streamed over the connection (the protocol's
 * local-infile exchange, in packets larger than one), MySQL's defaults and clauses, REPLACE and IGNORE, errors, and
 * a client that did not enable local files.
 */
class ItLoadData {
    private static final int ROWS = 30_000;

    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(1);

    @TempDir
    static Path files;

    @BeforeAll
    static void createFiles() throws Exception {
        StringBuilder tabs = new StringBuilder();
        for (int i = 0; i < ROWS; i++) {
            tabs.append(i).append('\t').append("row ").append(i).append(" with a \\t tab").append('\t')
                    .append(i % 10 == 0 ? "\\N" : Integer.toString(i % 100)).append('\n');
        }
        Files.writeString(files.resolve("rows.tsv"), tabs);
        Files.writeString(files.resolve("quoted.csv"), "id,name,n\n1,\"a, quoted \"\"one\"\"\",5\n2,plain,6\n");
        Files.writeString(files.resolve("overlap.csv"), "1,replaced,50\n3,new,7\n");
        Files.writeString(files.resolve("bad.csv"), "1,a,1\n2,b,notanumber\n");
    }

    private static Connection connect(boolean localFiles) throws SQLException {
        return DriverManager.getConnection(sqlCluster.url() + "&allowLoadLocalInfile=" + localFiles);
    }

    @Test
    void loadsTheClientsFileWithMySqlDefaults() throws Exception {
        try (Connection connection = connect(true); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE tsv (id INT PRIMARY KEY, name VARCHAR(40), n INT)");
            int loaded = statement.executeUpdate("LOAD DATA LOCAL INFILE '" + files.resolve("rows.tsv") + "' INTO TABLE tsv");
            assertThat(loaded).isEqualTo(ROWS);
            assertThat(row(statement, "SELECT count(*), count(n), sum(n) FROM tsv"))
                    .isEqualTo(row(statement, "SELECT " + ROWS + ", " + (ROWS - ROWS / 10) + ", "
                            + java.util.stream.IntStream.range(0, ROWS).filter(i -> i % 10 != 0).map(i -> i % 100).sum()));
            assertThat(row(statement, "SELECT name FROM tsv WHERE id = 12345")).containsExactly("row 12345 with a \t tab");
        }
    }

    @Test
    void userVariablesAndSetTransformTheFieldsRowByRow() throws Exception {
        try (Connection connection = connect(true); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE shaped (id INT PRIMARY KEY, name VARCHAR(40), n INT, doubled INT,"
                    + " note VARCHAR(20) DEFAULT 'none')");
            // The bad third field goes to a variable nobody uses; SET computes from fields, columns and variables.
            statement.execute("SET @suffix = '!'");
            int loaded = statement.executeUpdate("LOAD DATA LOCAL INFILE '" + files.resolve("bad.csv")
                    + "' INTO TABLE shaped FIELDS TERMINATED BY ',' (id, @raw, @unused)"
                    + " SET name = CONCAT(UPPER(@raw), @suffix), n = LENGTH(@unused), doubled = id * 2");
            assertThat(loaded).isEqualTo(2);
            assertThat(row(statement, "SELECT id, name, n, doubled, note FROM shaped WHERE id = 2"))
                    .containsExactly("2", "B!", "10", "4", "none");
            // Without a field list the fields fill the columns in order, and SET overrides.
            statement.execute("CREATE TABLE plain (id INT PRIMARY KEY, name VARCHAR(40), n INT)");
            statement.executeUpdate("LOAD DATA LOCAL INFILE '" + files.resolve("overlap.csv")
                    + "' INTO TABLE plain FIELDS TERMINATED BY ',' SET n = id + 100");
            assertThat(row(statement, "SELECT name, n FROM plain WHERE id = 3")).containsExactly("new", "103");
            assertThatThrownBy(() -> statement.executeUpdate("LOAD DATA LOCAL INFILE '" + files.resolve("bad.csv")
                    + "' INTO TABLE shaped FIELDS TERMINATED BY ',' (id, @a, @b) SET nosuch = 1"))
                    .isInstanceOf(SQLException.class).extracting(e -> ((SQLException) e).getErrorCode()).isEqualTo(1054);
            assertThatThrownBy(() -> statement.executeUpdate("LOAD DATA LOCAL INFILE '" + files.resolve("bad.csv")
                    + "' INTO TABLE shaped FIELDS TERMINATED BY ',' (id, 1 + 2, @b)"))
                    .isInstanceOf(SQLException.class).extracting(e -> ((SQLException) e).getErrorCode()).isEqualTo(1064);
        }
    }

    @Test
    void clausesReplaceAndIgnore() throws Exception {
        try (Connection connection = connect(true); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE quoted (id INT PRIMARY KEY, name VARCHAR(40), n INT)");
            statement.executeUpdate("LOAD DATA LOCAL INFILE '" + files.resolve("quoted.csv") + "' INTO TABLE quoted"
                    + " FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' LINES TERMINATED BY '\\n' IGNORE 1 LINES"
                    + " (id, name, n)");
            assertThat(row(statement, "SELECT name, n FROM quoted WHERE id = 1")).containsExactly("a, quoted \"one\"", "5");

            assertThatThrownBy(() -> statement.executeUpdate("LOAD DATA LOCAL INFILE '" + files.resolve("overlap.csv")
                    + "' INTO TABLE quoted FIELDS TERMINATED BY ','")).isInstanceOf(SQLException.class)
                    .extracting(e -> ((SQLException) e).getErrorCode()).isEqualTo(1062);
            statement.executeUpdate("LOAD DATA LOCAL INFILE '" + files.resolve("overlap.csv")
                    + "' IGNORE INTO TABLE quoted FIELDS TERMINATED BY ','");
            assertThat(row(statement, "SELECT name FROM quoted WHERE id = 1")).containsExactly("a, quoted \"one\"");
            assertThat(row(statement, "SELECT name FROM quoted WHERE id = 3")).containsExactly("new");
            statement.executeUpdate("LOAD DATA LOCAL INFILE '" + files.resolve("overlap.csv")
                    + "' REPLACE INTO TABLE quoted FIELDS TERMINATED BY ','");
            assertThat(row(statement, "SELECT name, n FROM quoted WHERE id = 1")).containsExactly("replaced", "50");
            assertThat(row(statement, "SELECT count(*) FROM quoted")).containsExactly("3");

            assertThatThrownBy(() -> statement.executeUpdate("LOAD DATA LOCAL INFILE '" + files.resolve("bad.csv")
                    + "' INTO TABLE quoted FIELDS TERMINATED BY ','")).isInstanceOf(SQLException.class)
                    .extracting(e -> ((SQLException) e).getErrorCode()).isIn(1366, 1292);
            // The connection is still in step after a statement that stopped early.
            assertThat(row(statement, "SELECT count(*) FROM quoted")).containsExactly("3");
            assertThatThrownBy(() -> statement.executeUpdate("LOAD DATA LOCAL INFILE '" + files.resolve("bad.csv")
                    + "' INTO TABLE nosuch")).isInstanceOf(SQLException.class)
                    .extracting(e -> ((SQLException) e).getErrorCode()).isEqualTo(1146);
        }
    }

    @Test
    void aClientWithoutLocalFilesIsRefused() throws Exception {
        try (Connection connection = connect(false); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE refused (id INT PRIMARY KEY)");
            assertThatThrownBy(() -> statement.executeUpdate("LOAD DATA LOCAL INFILE '" + files.resolve("rows.tsv")
                    + "' INTO TABLE refused")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("disabled");
            assertThat(row(statement, "SELECT count(*) FROM refused")).containsExactly("0");
        }
    }

    private static List<String> row(Statement statement, String sql) throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            assertThat(result.next()).isTrue();
            List<String> row = new ArrayList<>();
            for (int i = 1; i <= result.getMetaData().getColumnCount(); i++) {
                row.add(result.getString(i));
            }
            return row;
        }
    }
}
