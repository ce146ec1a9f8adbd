package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * mysqldump against a SQL server, as users move a table out: the dump it writes imports with IMPORT INTO ... FORMAT
 * 'sql' and replays through the mysql client, both to the same rows and checksum. The clients come from
 * bin/setup-test-tools when missing (the test fails if they cannot be installed).
 */
class ItMysqldump {
    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(1);

    @TempDir
    Path directory;

    @Test
    void aDumpImportsAndReplaysToTheSameRowsAndChecksum() throws Exception {
        Path mysql = ItMysqlClientScript.clientOrInstall();
        Path mysqldump = ItMysqlClientScript.onPath("mysqldump").or(() -> ItMysqlClientScript.onPath("mariadb-dump"))
                .orElseThrow(() -> new AssertionError("the mysql client's package brought no mysqldump"));
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE dumped");
            statement.execute("CREATE TABLE dumped.items (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, price DECIMAL(10,2),"
                    + " added DATETIME(6), day DATE, ratio DOUBLE, big BIGINT UNSIGNED, note TEXT, KEY (name))");
            StringBuilder insert = new StringBuilder("INSERT INTO dumped.items VALUES ");
            for (int i = 0; i < 500; i++) {
                insert.append(i == 0 ? "" : ",").append('(').append(i).append(",'")
                        .append(switch (i % 4) {
                            case 0 -> "it''s \\\"quoted\\\" " + i;
                            case 1 -> "back\\\\slash; " + i;
                            case 2 -> "line\\nbreak\\ttab " + i;
                            default -> "ünïcødé ✓ " + i;
                        }).append("',").append(i % 7 == 0 ? "NULL" : i + ".25").append(",'2026-01-0")
                        .append(1 + i % 9).append(" 10:20:30.").append(String.format("%06d", i)).append("','2025-12-")
                        .append(10 + i % 20).append("',").append(i / 3.0).append(',')
                        .append(i % 5 == 0 ? "18446744073709551615" : Integer.toString(i)).append(',')
                        .append(i % 3 == 0 ? "NULL" : "'note " + i + "'").append(')');
            }
            statement.executeUpdate(insert.toString());
        }
        Path dump = directory.resolve("items.sql");
        Process process = new ProcessBuilder(command(mysqldump, "--no-tablespaces", "dumped", "items"))
                .redirectOutput(dump.toFile()).redirectError(directory.resolve("mysqldump.err").toFile()).start();
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("mysqldump finished").isTrue();
        String errors = Files.readString(directory.resolve("mysqldump.err"), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("mysqldump failed: %s", errors).isZero();
        assertThat(Files.readString(dump, StandardCharsets.UTF_8)).contains("LOCK TABLES `items` WRITE;",
                "/*!40000 ALTER TABLE `items` DISABLE KEYS */;", "INSERT INTO `items` VALUES");

        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE imported");
            statement.execute("CREATE TABLE imported.items LIKE dumped.items");
            assertThat(statement.execute("IMPORT INTO imported.items FROM '" + dump + "' FORMAT 'sql'")).isTrue();
            assertThat(rows(statement, "SELECT * FROM imported.items ORDER BY id"))
                    .isEqualTo(rows(statement, "SELECT * FROM dumped.items ORDER BY id"));
            statement.execute("CREATE DATABASE replayed");
        }
        Process replay = new ProcessBuilder(command(mysql, "replayed")).redirectInput(dump.toFile())
                .redirectErrorStream(true).redirectOutput(directory.resolve("replay.out").toFile()).start();
        assertThat(replay.waitFor(2, TimeUnit.MINUTES)).as("mysql finished").isTrue();
        assertThat(replay.exitValue()).as("replaying the dump failed: %s",
                Files.readString(directory.resolve("replay.out"), StandardCharsets.UTF_8)).isZero();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            List<String> checksums = rows(statement, "ADMIN CHECKSUM TABLE dumped.items, imported.items, replayed.items");
            assertThat(checksums).hasSize(3);
            for (String row : checksums) {
                assertThat(row.substring(row.indexOf("|items|"))).as(row)
                        .isEqualTo(checksums.get(0).substring(checksums.get(0).indexOf("|items|")));
            }
            assertThat(rows(statement, "SHOW CREATE TABLE replayed.items"))
                    .isEqualTo(rows(statement, "SHOW CREATE TABLE dumped.items"));
            assertThat(rows(statement, "SELECT count(*) FROM replayed.items WHERE note IS NULL")).containsExactly("167");
        }
    }

    private static List<String> command(Path client, String... arguments) throws Exception {
        return command(client, sqlCluster.server().address().port(), arguments);
    }

    private static List<String> command(Path client, int port, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(client.toString(), "-h", "127.0.0.1", "-P",
                String.valueOf(port), "-u", "root",
                "--default-character-set=utf8mb4"));
        Process version = new ProcessBuilder(client.toString(), "--version").redirectErrorStream(true).start();
        boolean mariadb = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8).contains("MariaDB");
        version.waitFor();
        command.add(mariadb ? "--skip-ssl" : "--ssl-mode=DISABLED");
        command.addAll(List.of(arguments));
        return command;
    }

    /**
     * The round trip: a database with the types and definitions MySQL applications use is dumped, restored
     * into MariaDB, dumped from MariaDB with MariaDB's own definitions and restored back into DuetDB, where every
     * table answers as the original.
     */
    @Test
    void aDatabaseOfRichTypesRestoresIntoMariaDbAndBack() throws Exception {
        PrivateMariaDbServer mariaDb = PrivateMariaDbServer.startIfInstalled().orElseThrow(
                () -> new AssertionError("MariaDB's server is not installed (bin/setup-test-tools installs it)"));
        try (mariaDb) {
            Path mysql = ItMysqlClientScript.clientOrInstall();
            Path mysqldump = ItMysqlClientScript.onPath("mysqldump").or(() -> ItMysqlClientScript.onPath("mariadb-dump"))
                    .orElseThrow(() -> new AssertionError("the mysql client's package brought no mysqldump"));
            try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE rich");
                statement.execute("CREATE TABLE rich.item (id INT PRIMARY KEY, doc JSON, size ENUM('s','m','l') NOT NULL,"
                        + " tags SET('a','b','c'), flags BIT(4) DEFAULT b'0101', price DECIMAL(8,2),"
                        + " qty INT DEFAULT (2 * 3), total DECIMAL(10,2) AS (price * qty) STORED,"
                        + " label VARCHAR(20) GENERATED ALWAYS AS (CONCAT('#', id)) VIRTUAL,"
                        + " name VARCHAR(20) AS (JSON_UNQUOTE(JSON_EXTRACT(doc, '$.name'))) STORED,"
                        + " KEY by_name (name), CONSTRAINT qty_pos CHECK (qty > 0))");
                statement.execute("INSERT INTO rich.item (id, doc, size, tags, flags, price, qty) VALUES"
                        + " (1, '{\"name\": \"ann\", \"n\": [1, 2]}', 'm', 'a,c', b'1010', 2.50, 4),"
                        + " (2, '{\"name\": \"it''s\"}', 's', '', 1, 1.00, 1)");
                statement.execute("INSERT INTO rich.item (id, doc, size, price) VALUES (3, '[1, \"x\"]', 'l', 9.99)");
                statement.execute("CREATE VIEW rich.expensive AS SELECT id, total FROM rich.item WHERE total > 5");
                statement.execute("CREATE TABLE rich.line (id INT PRIMARY KEY, item_id INT NOT NULL,"
                        + " note VARCHAR(20) COLLATE utf8mb4_general_ci, CONSTRAINT line_item FOREIGN KEY (item_id)"
                        + " REFERENCES item (id) ON DELETE CASCADE)");
                statement.execute("INSERT INTO rich.line VALUES (1, 1, 'First'), (2, 3, 'second')");
            }
            String constraints = "SELECT CONSTRAINT_NAME, DELETE_RULE, REFERENCED_TABLE_NAME,"
                    + " (SELECT COUNT(*) FROM rich.line WHERE note = 'FIRST')"
                    + " FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = 'rich'";
            String query = "SELECT id, doc, size, tags, flags + 0, price, qty, total, label, name FROM item ORDER BY id";
            List<String> expected;
            try (Connection connection = DriverManager.getConnection(sqlCluster.url()
                    .replace("/test?", "/rich?")); Statement statement = connection.createStatement()) {
                expected = rows(statement, query);
                assertThat(expected).hasSize(3).first().asString().contains("10.00|#1|ann");
                assertThat(rows(statement, "SELECT * FROM expensive ORDER BY id")).containsExactly("1|10.00", "3|59.94");
            }
            Path dump = dumpAndCheck(mysqldump, sqlCluster.server().address().port(), "duet.sql");
            try (Connection connection = DriverManager.getConnection(mariaDb.url());
                    Statement statement = connection.createStatement()) {
                // The view's definer, as DuetDB's root is named, so that MariaDB can run the restored view.
                statement.execute("CREATE USER 'root'@'%'");
                statement.execute("GRANT ALL ON *.* TO 'root'@'%'");
            }
            restore(mysql, mariaDb.port(), dump, "maria.out");
            try (Connection connection = DriverManager.getConnection(mariaDb.url().replace("/test?", "/rich?"));
                    Statement statement = connection.createStatement()) {
                assertThat(rows(statement, query)).as("MariaDB after the restore").isEqualTo(expected);
                assertThat(rows(statement, "SELECT * FROM expensive ORDER BY id")).containsExactly("1|10.00", "3|59.94");
                assertThat(rows(statement, constraints)).containsExactly("line_item|CASCADE|item|1");
            }
            Path back = dumpAndCheck(mysqldump, mariaDb.port(), "maria.sql");
            try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                statement.execute("DROP DATABASE rich");
            }
            restore(mysql, sqlCluster.server().address().port(), back, "back.out");
            try (Connection connection = DriverManager.getConnection(sqlCluster.url()
                    .replace("/test?", "/rich?")); Statement statement = connection.createStatement()) {
                assertThat(rows(statement, query)).as("DuetDB after the way back").isEqualTo(expected);
                assertThat(rows(statement, "SELECT * FROM expensive ORDER BY id")).containsExactly("1|10.00", "3|59.94");
                assertThat(rows(statement, constraints)).containsExactly("line_item|CASCADE|item|1");
                assertThatThrownBy(() -> statement.execute("INSERT INTO item (id, size, qty) VALUES (9, 's', 0)"))
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(3819));
            }
        }
    }

    /** Dumps database rich from the server at {@code port} (with --databases, so the dump creates it). */
    private Path dumpAndCheck(Path mysqldump, int port, String file) throws Exception {
        Path dump = directory.resolve(file);
        Process process = new ProcessBuilder(command(mysqldump, port, "--no-tablespaces", "--databases", "rich"))
                .redirectOutput(dump.toFile()).redirectError(directory.resolve(file + ".err").toFile()).start();
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("mysqldump finished").isTrue();
        assertThat(process.exitValue()).as("mysqldump failed: %s",
                Files.readString(directory.resolve(file + ".err"), StandardCharsets.UTF_8)).isZero();
        return dump;
    }

    private void restore(Path mysql, int port, Path dump, String output) throws Exception {
        Process replay = new ProcessBuilder(command(mysql, port)).redirectInput(dump.toFile())
                .redirectErrorStream(true).redirectOutput(directory.resolve(output).toFile()).start();
        assertThat(replay.waitFor(2, TimeUnit.MINUTES)).as("mysql finished").isTrue();
        assertThat(replay.exitValue()).as("restoring %s failed: %s", dump.getFileName(),
                Files.readString(directory.resolve(output), StandardCharsets.UTF_8)).isZero();
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(sqlCluster.url());
    }

    private static List<String> rows(Statement statement, String sql) throws SQLException {
        return SqlTesting.executedRows(statement, sql);
    }
}
