package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The mysql command-line client against a SQL server: a script run in batch mode (what the client prints, and
 * the errors it prints and goes past with --force, compared with expected files), and an interactive session
 * on a pseudo-terminal (what the client asks at connect and for its status command). A machine without the
 * client gets it from bin/setup-test-tools; the test fails if that cannot install it.
 */
class ItMysqlClientScript {
    private static final Path PROJECT_ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Path OUTPUT = Path.of("target", "mysql-client");

    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(3);
    static Path mysql;

    @BeforeAll
    static void start() throws Exception {
        mysql = clientOrInstall();
        Files.createDirectories(OUTPUT);
    }

    /** The mysql client on PATH, installed by bin/setup-test-tools when missing. */
    static Path clientOrInstall() throws Exception {
        Optional<Path> found = onPath("mysql");
        if (found.isPresent() && onPath("script").isPresent()) {
            return found.get();
        }
        Path setup = PROJECT_ROOT.resolve("bin/setup-test-tools");
        Process process = new ProcessBuilder(setup.toString(), "mysql", "script").redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(10, TimeUnit.MINUTES)).as("%s finished", setup).isTrue();
        assertThat(process.exitValue()).as("%s failed:%n%s", setup, output).isZero();
        return onPath("mysql").orElseThrow(() -> new AssertionError(setup + " did not install mysql:\n" + output));
    }

    static Optional<Path> onPath(String command) {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(directory, command);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Connection arguments; TLS off: newer MariaDB clients insist on verifying a server certificate. */
    static List<String> clientCommand(String... extra) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(mysql.toString(), "-h", "127.0.0.1", "-P",
                String.valueOf(sqlCluster.server().address().port()), "-u", "root", "--default-character-set=utf8mb4"));
        Process version = new ProcessBuilder(mysql.toString(), "--version").redirectErrorStream(true).start();
        boolean mariadb = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .contains("MariaDB");
        version.waitFor();
        command.add(mariadb ? "--skip-ssl" : "--ssl-mode=DISABLED");
        command.addAll(List.of(extra));
        return command;
    }

    static Path resource(String name) throws URISyntaxException {
        return Path.of(ItMysqlClientScript.class.getResource("/mysql-client/" + name).toURI());
    }

    static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8).replace("\r\n", "\n");
    }

    @Test
    void runsAScriptInBatchModeAsExpected() throws Exception {
        Path stdout = OUTPUT.resolve("basics.out");
        Path stderr = OUTPUT.resolve("basics.err");
        Process process = new ProcessBuilder(clientCommand("--batch", "--force"))
                .redirectInput(resource("basics.sql").toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("mysql finished").isTrue();
        // --force goes past the errors (the exit status differs between MariaDB's and MySQL's clients).
        assertThat(read(stdout)).as("standard output (also in %s)", stdout.toAbsolutePath())
                .isEqualTo(read(resource("basics.expected")));
        // MariaDB's client also echoes each failed statement between dashes; MySQL's prints the error alone.
        List<String> errors = read(stderr).lines().filter(line -> line.startsWith("ERROR")).toList();
        assertThat(errors).as("errors on standard error (all of it in %s)", stderr.toAbsolutePath())
                .isEqualTo(read(resource("basics.expected-errors")).lines().toList());
    }

    @Test
    void answersWhatTheInteractiveClientAsks() throws Exception {
        // On a terminal the client greets with the server's version and comment, fetches names for completion
        // and runs its status command; `script` gives it a pseudo-terminal.
        try (Connection connection = DriverManager.getConnection("jdbc:mysql://" + sqlCluster.server().address()
                + "/test?user=root&useSSL=false"); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE greetings (id INT PRIMARY KEY, text VARCHAR(20))");
        }
        double fieldListsBefore = SqlTesting.metric(sqlCluster.server(), "duet_sql_commands_total", "command=\"field_list\"");
        Path transcript = OUTPUT.resolve("interactive.out");
        String command = String.join(" ", clientCommand("test").stream().map(ItMysqlClientScript::quoted).toList());
        Process process = new ProcessBuilder("script", "-q", "-e", "-c", command, "/dev/null")
                .redirectInput(resource("interactive.sql").toFile())
                .redirectErrorStream(true).redirectOutput(transcript.toFile()).start();
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("mysql finished").isTrue();
        String output = read(transcript).replace("\r", "");
        assertThat(process.exitValue()).as("exit status; transcript:%n%s", output).isZero();
        // "8.0.11-DuetDB-<build> DuetDB": the version, then what select @@version_comment limit 1 answered.
        assertThat(output).as("transcript").containsPattern("Server version: 8\\.0\\.11-DuetDB\\S* DuetDB\n")
                .containsPattern("Current database:\\s+test")
                .containsPattern("Uptime:\\s+\\d+")
                .containsPattern("\\|\\s+answer\\s+\\|")
                .containsPattern("\\|\\s+42\\s+\\|")
                .doesNotContain("ERROR");
        // Completion: the client listed the database's tables and asked for each one's fields.
        assertThat(SqlTesting.metric(sqlCluster.server(), "duet_sql_commands_total", "command=\"field_list\""))
                .isGreaterThan(fieldListsBefore);
    }

    private static String quoted(String argument) {
        return "'" + argument.replace("'", "'\\''") + "'";
    }
}
