package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
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

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.bulk.export.ExportMetadata;
import io.duetdb.cli.Main;
import picocli.CommandLine;

/**
 * bin/duet export and IMPORT INTO round trips, through local files and a real HDFS (MiniDFSCluster): a table of
 * awkward values (quotes, separators, backslashes, line breaks, NULLs, unsigned and fractional-second values) is
 * exported at one timestamp, imported into an empty copy, and the copy equals the original row for row and by
 * ADMIN CHECKSUM TABLE, which the export's metadata.json recorded.
 */
class ItBulkExport {
    private static final String COLUMNS = "(id BIGINT PRIMARY KEY, u BIGINT UNSIGNED, d DECIMAL(12,3), f DOUBLE,"
            + " s VARCHAR(40), b DATE, t DATETIME(3), h TIME, n INT, UNIQUE KEY (s), KEY (b, n))";

    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(1);

    @TempDir
    static Path local;

    private static MiniDFSCluster hdfs;

    @BeforeAll
    static void start() throws Exception {
        Configuration configuration = new Configuration();
        configuration.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, local.resolve("hdfs").toString());
        hdfs = new MiniDFSCluster.Builder(configuration).numDataNodes(1).build();
        hdfs.waitActive();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS bulk");
            statement.execute("CREATE TABLE bulk.source " + COLUMNS);
            StringBuilder insert = new StringBuilder("INSERT INTO bulk.source VALUES ");
            for (int i = 0; i < 3000; i++) {
                insert.append(i == 0 ? "" : ",").append('(').append(i).append(',')
                        .append(i % 7 == 0 ? "18446744073709551615" : Integer.toString(i * 3)).append(',')
                        .append(i % 11 == 0 ? "NULL" : "-" + i + ".125").append(',').append(i / 7.0).append(",'")
                        .append(switch (i % 5) {
                            case 0 -> "comma, \"quote\" " + i;
                            case 1 -> "back\\\\slash \\\\N " + i;
                            case 2 -> "line\\nbreak " + i;
                            case 3 -> "plain " + i;
                            default -> "tab\\tand ''single'' " + i;
                        }).append("','2024-0").append(1 + i % 9).append("-2").append(i % 8).append("','2024-02-03 04:05:0")
                        .append(i % 10).append('.').append(String.format("%03d", i % 1000)).append("','")
                        .append(i % 3 == 0 ? "-" : "").append(i % 800).append(":30:15',")
                        .append(i % 13 == 0 ? "NULL" : Integer.toString(i % 97)).append(')');
            }
            statement.executeUpdate(insert.toString());
            // Exported beside source, at the same time: each table's count in metadata.json is its own.
            statement.execute("CREATE TABLE bulk.small (id INT PRIMARY KEY)");
            statement.executeUpdate("INSERT INTO bulk.small VALUES (1), (2), (3)");
        }
    }

    @AfterAll
    static void stop() {
        if (hdfs != null) {
            hdfs.shutdown();
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(sqlCluster.url());
    }

    @Test
    void roundTripThroughLocalFiles() throws Exception {
        roundTrip(local.resolve("export").toString(), "local_copy", 20_000, "csv");
        ExportMetadata metadata = ExportMetadata.read(FileSystem.getLocal(new Configuration()),
                new org.apache.hadoop.fs.Path(local.resolve("export").toString())).orElseThrow();
        assertThat(metadata.table("bulk", "source").orElseThrow().rows()).isEqualTo(3000);
        assertThat(metadata.table("bulk", "source").orElseThrow().checksum().totalKvs()).isEqualTo(9000);
        assertThat(metadata.table("bulk", "small").orElseThrow().rows()).isEqualTo(3);
        try (var files = Files.list(local.resolve("export"))) {
            // Cut by size: several files, and no checksum side files.
            assertThat(files.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".csv")).count())
                    .isGreaterThan(3);
        }
        try (var files = Files.list(local.resolve("export"))) {
            assertThat(files.filter(path -> path.getFileName().toString().endsWith(".crc"))).isEmpty();
        }
    }

    @Test
    void roundTripThroughHdfs() throws Exception {
        String uri = hdfs.getURI() + "/exports/bulk";
        roundTrip(uri, "hdfs_copy", 1 << 20, "csv");
        assertThat(hdfs.getFileSystem().exists(new org.apache.hadoop.fs.Path("/exports/bulk/metadata.json"))).isTrue();
    }

    @Test
    void roundTripThroughParquetOnHdfs() throws Exception {
        roundTrip(hdfs.getURI() + "/exports/parquet", "parquet_copy", 40_000, "parquet");
        assertThat(hdfs.getFileSystem().listStatus(new org.apache.hadoop.fs.Path("/exports/parquet"),
                path -> path.getName().endsWith(".parquet")).length).isGreaterThan(1);
    }

    @Test
    void parquetFromHdfsImportsByColumnName() throws Exception {
        Path parquet = local.resolve("items.parquet");
        try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:"); Statement statement = duckdb.createStatement()) {
            statement.execute("COPY (SELECT i AS id, CAST(i * 1.5 AS DECIMAL(10,2)) AS price,"
                    + " CASE WHEN i % 4 = 0 THEN NULL ELSE 'name ' || i END AS name, DATE '2024-01-01' + CAST(i AS INTEGER) AS day,"
                    + " TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i) AS at, i / 8.0 AS ratio,"
                    + " CAST(i AS UBIGINT) * 1000000000000 AS big"
                    + " FROM range(5000) t(i)) TO '" + parquet + "' (FORMAT parquet)");
        }
        org.apache.hadoop.fs.FileSystem fileSystem = hdfs.getFileSystem();
        fileSystem.copyFromLocalFile(new org.apache.hadoop.fs.Path(parquet.toString()),
                new org.apache.hadoop.fs.Path("/parquet/items.parquet"));
        String uri = hdfs.getURI() + "/parquet/items.parquet";
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            // Columns in another order than the file's: Parquet's names decide where values go.
            statement.execute("CREATE TABLE bulk.from_parquet (big BIGINT UNSIGNED, ratio DOUBLE, at DATETIME(6),"
                    + " day DATE, name VARCHAR(20), price DECIMAL(10,2), id INT PRIMARY KEY)");
            assertThat(statement.execute("IMPORT INTO bulk.from_parquet FROM '" + uri + "' FORMAT 'parquet'")).isTrue();
            assertThat(rows(statement, "SELECT count(*), count(name), sum(price), max(day), max(at), sum(ratio), max(big)"
                    + " FROM bulk.from_parquet")).containsExactly("5000|3750|18746250.00|2037-09-08|2024-01-01 01:23:19|"
                    + "1562187.5|4999000000000000");
            assertThat(rows(statement, "SELECT id, price, name, day, at FROM bulk.from_parquet WHERE id = 7"))
                    .containsExactly("7|10.50|name 7|2024-01-08|2024-01-01 00:00:07");

            // A table without one of the file's columns: refused before anything is written.
            statement.execute("CREATE TABLE bulk.narrow (id INT PRIMARY KEY, price DECIMAL(10,2))");
            assertThatThrownBy(() -> statement.execute("IMPORT INTO bulk.narrow FROM '" + uri + "' FORMAT 'parquet'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("Unknown column")
                    .extracting(e -> ((SQLException) e).getErrorCode()).isEqualTo(1054);
            assertThatThrownBy(() -> statement.execute("IMPORT INTO bulk.narrow FROM '" + uri + "' FORMAT 'parquet'"
                    + " WITH FIELDS_TERMINATED_BY='|'")).isInstanceOf(SQLException.class)
                    .extracting(e -> ((SQLException) e).getErrorCode()).isEqualTo(8166);
            assertThat(rows(statement, "SELECT count(*) FROM bulk.narrow")).containsExactly("0");
        }
    }

    @Test
    void roundTripThroughSqlFilesAndTheirSchema() throws Exception {
        Path output = local.resolve("export-sql");
        export(output.toString(), 100_000, "sql");
        assertThat(Files.readString(output.resolve("bulk-schema-create.sql")))
                .contains("CREATE DATABASE IF NOT EXISTS `bulk`;");
        String schema = Files.readString(output.resolve("bulk.source-schema.sql"));
        assertThat(schema).contains("CREATE TABLE `source` (");
        assertThat(Files.readString(output.resolve("bulk.source.000000000.sql")))
                .contains("INSERT INTO `source` (`id`,");
        assertThat(Files.readString(output.resolve("metadata.json"))).contains("\"schema\" : \"file:" + output
                + "/bulk.source-schema.sql\"");
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE bulk_sql");
            statement.execute("USE bulk_sql");
            // The schema file as a client replays it: its statements, one by one.
            for (String sql : schema.split(";\n")) {
                if (!sql.isBlank()) {
                    statement.execute(sql);
                }
            }
            assertThat(statement.execute("IMPORT INTO bulk_sql.source FROM '" + output + "/bulk.source.*.sql'"
                    + " FORMAT 'sql'")).isTrue();
            assertThat(rows(statement, "SELECT * FROM bulk_sql.source ORDER BY id"))
                    .isEqualTo(rows(statement, "SELECT * FROM bulk.source ORDER BY id"));
            List<String> checksums = rows(statement, "ADMIN CHECKSUM TABLE bulk.source, bulk_sql.source");
            assertThat(checksums.get(1).replace("bulk_sql|", "bulk|")).isEqualTo(checksums.get(0));

            // A dump as mysqldump writes it: its other statements are skipped, its INSERTs name no columns.
            Path dump = local.resolve("mysqldump.sql");
            Files.writeString(dump, """
                    -- MySQL dump 10.19  Distrib 10.11.6-MariaDB
                    /*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
                    DROP TABLE IF EXISTS `pairs`;
                    CREATE TABLE `pairs` (`k` int NOT NULL, `v` varchar(10) DEFAULT NULL, PRIMARY KEY (`k`));
                    LOCK TABLES `pairs` WRITE;
                    /*!40000 ALTER TABLE `pairs` DISABLE KEYS */;
                    INSERT INTO `pairs` VALUES (1,'one'),(2,'it\\'s'),(3,NULL);
                    INSERT INTO `pairs` VALUES (4,'four');
                    UNLOCK TABLES;
                    """);
            statement.execute("CREATE TABLE bulk_sql.pairs (k INT PRIMARY KEY, v VARCHAR(10))");
            assertThat(statement.execute("IMPORT INTO bulk_sql.pairs FROM '" + dump + "' FORMAT 'sql'")).isTrue();
            assertThat(rows(statement, "SELECT k, v FROM bulk_sql.pairs ORDER BY k"))
                    .containsExactly("1|one", "2|it's", "3|null", "4|four");
            statement.execute("CREATE TABLE bulk_sql.bad (k INT PRIMARY KEY, v VARCHAR(10))");
            Path bad = local.resolve("bad.sql");
            Files.writeString(bad, "INSERT INTO `bad` VALUES (1,'a'),\n(2,NOW());\n");
            assertThatThrownBy(() -> statement.execute("IMPORT INTO bulk_sql.bad FROM '" + bad + "' FORMAT 'sql'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("line 2: the value NOW is not a literal")
                    .extracting(e -> ((SQLException) e).getErrorCode()).isEqualTo(8162);
            assertThat(rows(statement, "SELECT count(*) FROM bulk_sql.bad")).containsExactly("0");
        }
    }

    @Test
    void importCommandCreatesTheTablesAndVerifiesTheExportsChecksums() throws Exception {
        Path output = local.resolve("export-for-import");
        export(output.toString(), 50_000, "csv");
        StringWriter out = new StringWriter();
        assertThat(run(out, "import", "--sql", sqlCluster.server().address().toString(), "--input", output.toString(),
                "--database", "bulk_cli", "--threads", "2")).as("import failed: %s", out).isZero();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(rows(statement, "SELECT * FROM bulk_cli.source ORDER BY id"))
                    .isEqualTo(rows(statement, "SELECT * FROM bulk.source ORDER BY id"));
            assertThat(rows(statement, "SELECT count(*) FROM bulk_cli.small")).containsExactly("3");
            assertThat(rows(statement, "SHOW CREATE TABLE bulk_cli.source").get(0))
                    .isEqualTo(rows(statement, "SHOW CREATE TABLE bulk.source").get(0));
        }

        // Run again: the tables holding the export's rows are skipped, as after a run that stopped half-way.
        PrintStream console = System.out;
        ByteArrayOutputStream rerun = new ByteArrayOutputStream();
        System.setOut(new PrintStream(rerun, true, StandardCharsets.UTF_8));
        try {
            assertThat(run(new StringWriter(), "import", "--sql", sqlCluster.server().address().toString(), "--input",
                    output.toString(), "--database", "bulk_cli")).isZero();
        } finally {
            System.setOut(console);
        }
        assertThat(rerun.toString(StandardCharsets.UTF_8)).contains("`bulk_cli`.`source`: 3,000 rows",
                "imported by an earlier run: skipped");
        // A table holding other rows: refused with IMPORT INTO's error, nothing changes.
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO bulk_cli.small VALUES (4)");
        }
        StringWriter again = new StringWriter();
        assertThat(run(again, "import", "--sql", sqlCluster.server().address().toString(), "--input", output.toString(),
                "--database", "bulk_cli", "--tables", "small")).isEqualTo(1);
        assertThat(again.toString()).contains("ERROR 8173");
        // The logical backend: batched INSERTs, into new tables (the checksums match) or ones holding rows.
        String server = sqlCluster.server().address().toString();
        StringWriter logical = new StringWriter();
        assertThat(run(logical, "import", "--sql", server, "--input", output.toString(), "--database", "bulk_logical",
                "--backend", "logical", "--threads", "2")).as("logical import failed: %s", logical).isZero();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(rows(statement, "SELECT * FROM bulk_logical.source ORDER BY id"))
                    .isEqualTo(rows(statement, "SELECT * FROM bulk.source ORDER BY id"));
            List<String> checksums = rows(statement, "ADMIN CHECKSUM TABLE bulk.source, bulk_logical.source");
            assertThat(checksums.get(1).replace("bulk_logical|", "bulk|")).isEqualTo(checksums.get(0));
            statement.execute("UPDATE bulk_logical.small SET id = 30 WHERE id = 3");
        }
        StringWriter duplicate = new StringWriter();
        assertThat(run(duplicate, "import", "--sql", server, "--input", output.toString(), "--database", "bulk_logical",
                "--tables", "small", "--backend", "logical", "--no-schema")).isEqualTo(1);
        assertThat(duplicate.toString()).contains("ERROR 1062");
        StringWriter ignore = new StringWriter();
        assertThat(run(ignore, "import", "--sql", server, "--input", output.toString(), "--database", "bulk_logical",
                "--tables", "small", "--backend", "logical", "--no-schema", "--on-duplicate", "ignore"))
                .as("import failed: %s", ignore).isZero();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(rows(statement, "SELECT id FROM bulk_logical.small ORDER BY id")).containsExactly("1", "2", "3", "30");
        }
        StringWriter physicalReplace = new StringWriter();
        assertThat(run(physicalReplace, "import", "--sql", server, "--input", output.toString(), "--on-duplicate",
                "replace")).isEqualTo(1);
        assertThat(physicalReplace.toString()).contains("needs --backend logical");
        StringWriter unknown = new StringWriter();
        assertThat(run(unknown, "import", "--sql", sqlCluster.server().address().toString(), "--input",
                output.toString(), "--tables", "nosuch")).isEqualTo(1);
        assertThat(unknown.toString()).contains("holds no files of table nosuch");
    }

    @Test
    void importCommandReadsADumplingDirectoryWithHeaders() throws Exception {
        // Dumpling's layout and its --csv-header files, no metadata.json: nothing to compare, everything to create.
        Path dumpling = local.resolve("dumpling");
        Files.createDirectories(dumpling);
        Files.writeString(dumpling.resolve("legacy-schema-create.sql"), "CREATE DATABASE `legacy`;\n");
        Files.writeString(dumpling.resolve("legacy.people-schema.sql"), "/*!40101 SET NAMES binary*/;\n"
                + "CREATE TABLE `people` (`id` int NOT NULL, `name` varchar(20) DEFAULT 'x;y', PRIMARY KEY (`id`)"
                + " /*T![clustered_index] NONCLUSTERED */) ENGINE=InnoDB;\n");
        Files.writeString(dumpling.resolve("legacy.people.000000000.csv"), "id,name\n1,ann\n2,\"bo, b\"\n");
        Files.writeString(dumpling.resolve("legacy.people.000000001.csv"), "id,name\n3,\\N\n");
        String server = sqlCluster.server().address().toString();
        for (String backend : List.of("physical", "logical")) {
            StringWriter err = new StringWriter();
            assertThat(run(err, "import", "--sql", server, "--input", dumpling.toString(), "--database",
                    "legacy_" + backend, "--csv-header", "--backend", backend)).as("%s import failed: %s", backend, err)
                    .isZero();
            try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                assertThat(rows(statement, "SELECT id, name FROM legacy_" + backend + ".people ORDER BY id"))
                        .containsExactly("1|ann", "2|bo, b", "3|null");
                // The executable comment kept the key nonclustered.
                assertThat(rows(statement, "SHOW CREATE TABLE legacy_" + backend + ".people").get(0))
                        .contains("NONCLUSTERED");
            }
        }
    }

    /** Runs bin/duet's command line; answers its exit code, its error output in {@code err}. */
    private static int run(StringWriter err, String... args) {
        CommandLine command = Main.commandLine();
        command.setErr(new PrintWriter(err));
        return command.execute(args);
    }

    private void export(String output, long fileSize, String format) {
        String placement = sqlCluster.cluster().placement().clientAddresses().get(0).toString();
        StringWriter err = new StringWriter();
        int exit = run(err, "export", "--pd", placement, "--database", "bulk", "--tables", "source,small",
                "--output", output, "--file-size", fileSize + "B", "--threads", "2", "--format", format);
        assertThat(exit).as("export failed: %s", err).isZero();
    }

    private void roundTrip(String output, String copy, long fileSize, String format) throws Exception {
        export(output, fileSize, format);
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE bulk." + copy + " " + COLUMNS);
            assertThat(statement.execute("IMPORT INTO bulk." + copy + " FROM '" + output + "/bulk.source.*." + format
                    + "' FORMAT '" + format + "'")).isTrue();
            try (ResultSet result = statement.getResultSet()) {
                assertThat(result.next()).isTrue();
                assertThat(result.getLong("Imported_Rows")).isEqualTo(3000);
            }
            assertThat(rows(statement, "SELECT * FROM bulk." + copy + " ORDER BY id"))
                    .isEqualTo(rows(statement, "SELECT * FROM bulk.source ORDER BY id"));
            List<String> checksums = rows(statement, "ADMIN CHECKSUM TABLE bulk.source, bulk." + copy);
            assertThat(checksums.get(1).substring(checksums.get(1).indexOf('|')))
                    .isEqualTo(checksums.get(0).substring(checksums.get(0).indexOf('|')).replace("source", copy));
        }
    }

    private static List<String> rows(Statement statement, String sql) throws SQLException {
        return SqlTesting.executedRows(statement, sql);
    }
}
