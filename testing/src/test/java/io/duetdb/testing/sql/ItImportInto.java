package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
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
 * IMPORT INTO (physical import of CSV files) and ADMIN CHECKSUM TABLE through Connector/J: imported rows equal the
 * same rows INSERTed (the stores' checksums of records and index entries agree), indexes answer, counters move on,
 * and bad input fails with MySQL/TiDB error codes leaving the table empty.
 */
class ItImportInto {
    private static final int ROWS = 12_000;

    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(3);

    @TempDir
    static Path files;

    @BeforeAll
    static void createFiles() throws Exception {
        for (int part = 0; part < 3; part++) {
            StringBuilder csv = new StringBuilder("id,name,price,day,note\n");
            for (int i = part; i < ROWS; i += 3) {
                csv.append(i).append(",\"name ").append(i).append(", quoted \"\"x\"\"\",").append(i % 1000).append('.')
                        .append(String.format("%02d", i % 100)).append(",2024-0").append(1 + i % 9).append("-1")
                        .append(i % 10).append(',').append(i % 7 == 0 ? "\\N" : "n" + (i % 13)).append('\n');
            }
            Files.writeString(files.resolve("items-" + part + ".csv"), csv.toString(), StandardCharsets.UTF_8);
        }
        Files.writeString(files.resolve("bad-number.csv"), "1,a,1.00,2024-01-01,x\n2,b,abc,2024-01-02,y\n");
        Files.writeString(files.resolve("duplicate.csv"), "1,a,1.00,2024-01-01,x\n1,b,2.00,2024-01-02,y\n");
        Files.writeString(files.resolve("short.csv"), "1,a,1.00,2024-01-01,x\n2,b,2.00\n");
        Files.writeString(files.resolve("autos.csv"), "\\N,first\n10,second\n\\N,third\n");
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS test");
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(sqlCluster.url());
    }

    private static String table(String name) {
        return "CREATE TABLE " + name + " (id INT PRIMARY KEY, name VARCHAR(64) NOT NULL, price DECIMAL(8,2),"
                + " day DATE, note VARCHAR(10), UNIQUE KEY u_name (name), KEY k_day (day))";
    }

    @Test
    void importedRowsEqualInsertedRowsAndAppearAtOnce() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute(table("imported"));
            statement.execute(table("inserted"));
            List<Object> result = firstRow(query(statement, "IMPORT INTO imported FROM '" + files
                    + "/items-*.csv' WITH SKIP_ROWS=1, THREAD=2"));
            assertThat(result.get(2)).isEqualTo("finished");
            assertThat(((Number) result.get(4)).longValue()).isEqualTo(ROWS);
            // The import is a DDL job, with its rows, on every server's ADMIN SHOW DDL JOBS.
            List<String> jobs = new ArrayList<>();
            try (ResultSet shown = query(statement, "ADMIN SHOW DDL JOBS")) {
                while (shown.next()) {
                    jobs.add(shown.getString("JOB_TYPE") + "|" + shown.getString("TABLE_NAME") + "|"
                            + shown.getLong("ROW_COUNT") + "|" + shown.getString("STATE"));
                }
            }
            assertThat(jobs).contains("import into|imported|" + ROWS + "|synced");
            // The same rows through INSERT, read back from the CSV text by the SQL layer's own conversions.
            for (int part = 0; part < 3; part++) {
                StringBuilder insert = new StringBuilder("INSERT INTO inserted VALUES ");
                boolean first = true;
                for (String line : Files.readAllLines(files.resolve("items-" + part + ".csv")).subList(1, ROWS / 3 + 1)) {
                    int quoteEnd = line.lastIndexOf('"');
                    String[] head = line.substring(0, line.indexOf(',')).split(",");
                    String name = line.substring(line.indexOf('"') + 1, quoteEnd).replace("\"\"", "\"");
                    String[] tail = line.substring(quoteEnd + 2).split(",");
                    insert.append(first ? "" : ",").append('(').append(head[0]).append(",'").append(name.replace("'", "''"))
                            .append("','").append(tail[0]).append("','").append(tail[1]).append("',")
                            .append(tail[2].equals("\\N") ? "NULL" : "'" + tail[2] + "'").append(')');
                    first = false;
                }
                statement.executeUpdate(insert.toString());
            }
            List<Object> imported = firstRow(query(statement, "ADMIN CHECKSUM TABLE imported"));
            List<Object> inserted = firstRow(query(statement, "ADMIN CHECKSUM TABLE inserted"));
            assertThat(imported.subList(2, 5)).isEqualTo(inserted.subList(2, 5));
            // Records plus two index entries per row.
            assertThat(((Number) imported.get(3)).longValue()).isEqualTo(3L * ROWS);
            assertThat(imported.get(2)).isEqualTo(result.get(5));

            assertThat(firstRow(statement.executeQuery("SELECT count(*), sum(price), count(note), max(day) FROM imported")))
                    .isEqualTo(firstRow(statement.executeQuery(
                            "SELECT count(*), sum(price), count(note), max(day) FROM inserted")));
            assertThat(firstRow(statement.executeQuery("SELECT id, price FROM imported WHERE name = 'name 4321, quoted \"x\"'")))
                    .containsExactly(4321, new java.math.BigDecimal("321.21"));
            assertThat(firstRow(statement.executeQuery("SELECT count(*) FROM imported WHERE day = '2024-01-10'")))
                    .isEqualTo(firstRow(statement.executeQuery("SELECT count(*) FROM inserted WHERE day = '2024-01-10'")));
            // The imported table takes writes as any other, its unique keys checked against the imported rows.
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO imported VALUES (1, 'dup', 1, NULL, NULL)"))
                    .isInstanceOf(SQLException.class).extracting(e -> ((SQLException) e).getErrorCode()).isEqualTo(1062);
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO imported VALUES (-1, 'name 7, quoted \"x\"', 1,"
                    + " NULL, NULL)")).isInstanceOf(SQLException.class)
                    .extracting(e -> ((SQLException) e).getErrorCode()).isEqualTo(1062);
            // A table that is not empty is refused.
            assertError(statement, "IMPORT INTO imported FROM '" + files + "/items-0.csv' WITH SKIP_ROWS=1", 8173,
                    "not empty");
        }
    }

    @Test
    void badInputFailsWithItsCodeAndLeavesTheTableEmpty() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute(table("refused"));
            assertError(statement, "IMPORT INTO refused FROM '" + files + "/bad-number.csv'", 1366, "line 2");
            assertError(statement, "IMPORT INTO refused FROM '" + files + "/duplicate.csv'", 1062, "Duplicate entry");
            assertError(statement, "IMPORT INTO refused FROM '" + files + "/short.csv'", 1261, "line 2");
            assertError(statement, "IMPORT INTO refused FROM '" + files + "/missing-*.csv'", 8159, "no file matches");
            assertError(statement, "IMPORT INTO refused FROM '" + files + "/short.csv' FORMAT 'avro'", 8157, "avro");
            assertError(statement, "IMPORT INTO refused FROM '" + files + "/short.csv' WITH DISK_QUOTA='1G'", 8166,
                    "DISK_QUOTA");
            assertError(statement, "IMPORT INTO refused FROM '" + files + "/short.csv' WITH THREAD=0", 8162, "THREAD");
            assertError(statement, "IMPORT INTO nosuch FROM '" + files + "/short.csv'", 1146, "doesn't exist");
            assertError(statement, "IMPORT INTO refused (id, nosuch) FROM '" + files + "/short.csv'", 1054, "nosuch");
            assertThat(firstRow(statement.executeQuery("SELECT count(*) FROM refused"))).containsExactly(0L);
            assertThat(firstRow(query(statement, "ADMIN CHECKSUM TABLE refused")).subList(2, 5))
                    .containsExactly(java.math.BigInteger.ZERO, java.math.BigInteger.ZERO, java.math.BigInteger.ZERO);
        }
    }

    @Test
    void hiddenRowIdsAndAutoIncrementValuesMoveTheirCountersOn() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            // Unnamed keys take their first column's name, made unique (label, label_2).
            statement.execute("CREATE TABLE autos (id BIGINT AUTO_INCREMENT, label VARCHAR(10), KEY (id), KEY (label),"
                    + " KEY (label, id))");
            query(statement, "IMPORT INTO autos FROM '" + files + "/autos.csv'").close();
            statement.executeUpdate("INSERT INTO autos (label) VALUES ('after')");
            List<String> rows = new ArrayList<>();
            try (ResultSet result = statement.executeQuery("SELECT id, label FROM autos ORDER BY id")) {
                while (result.next()) {
                    rows.add(result.getLong(1) + ":" + result.getString(2));
                }
            }
            assertThat(rows).hasSize(4).contains("10:second");
            assertThat(rows.get(3)).endsWith(":after");
            assertThat(Long.parseLong(rows.get(3).split(":")[0])).isGreaterThan(10);
            assertThat(rows.stream().map(row -> row.split(":")[0]).distinct()).hasSize(4);
            assertThat(firstRow(statement.executeQuery("SELECT count(*) FROM autos WHERE label = 'second'")))
                    .containsExactly(1L);
        }
    }

    private static void assertError(Statement statement, String sql, int code, String text) {
        assertThatThrownBy(() -> query(statement, sql).close()).as(sql).isInstanceOf(SQLException.class)
                .hasMessageContaining(text).extracting(e -> ((SQLException) e).getErrorCode()).isEqualTo(code);
    }

    /** Connector/J's executeQuery refuses statements it does not know to answer rows: execute() them. */
    private static ResultSet query(Statement statement, String sql) throws SQLException {
        assertThat(statement.execute(sql)).as("%s answers rows", sql).isTrue();
        return statement.getResultSet();
    }

    private static List<Object> firstRow(ResultSet result) throws SQLException {
        try (result) {
            assertThat(result.next()).isTrue();
            List<Object> row = new ArrayList<>();
            for (int i = 1; i <= result.getMetaData().getColumnCount(); i++) {
                row.add(result.getObject(i));
            }
            return row;
        }
    }
}
