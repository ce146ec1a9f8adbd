package io.duetdb.benchmarks.mariadb;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.duetdb.common.config.DataSize;
import io.duetdb.common.net.LoopbackPorts;

/**
 * A MariaDB server of this process's own, for a benchmark to run beside DuetDB on the same machine: {@link #start}
 * creates a data directory under the temporary directory with mariadb-install-db (root without a password over
 * TCP, no test database), starts mariadbd on it with no option files, listening on 127.0.0.1 at a free port, with no
 * binary log, waits until it accepts connections and creates a database {@code tpch}; {@link #close} stops it
 * (SIGTERM, then SIGKILL if it does not stop in time) and deletes the directory. A server that does not come up is
 * reported with the end of its log, kept in a file of its own since the directory goes.
 *
 * <p>Needs Debian's mariadb-server (mariadbd and mariadb-install-db): {@code bin/setup-test-tools mariadb}.
 */
public final class PrivateMariaDb implements AutoCloseable {
    /** The database {@link #start} creates. */
    public static final String DATABASE = "tpch";

    private static final List<Path> SEARCH_PATH = List.of(Path.of("/usr/sbin"), Path.of("/usr/local/sbin"),
            Path.of("/usr/bin"), Path.of("/usr/local/bin"));
    private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(5);
    private static final int LOG_LINES_SHOWN = 20;

    /**
     * How the server runs: the InnoDB buffer pool's size, the server-side limit on a SELECT's time
     * ({@code max_statement_time}; zero for none) and how long it may take to accept connections.
     */
    public record Config(DataSize bufferPoolSize, Duration statementLimit, Duration startTimeout) {
        public Config {
            requireNonNull(bufferPoolSize, "bufferPoolSize is null");
            requireNonNull(statementLimit, "statementLimit is null");
            requireNonNull(startTimeout, "startTimeout is null");
        }
    }

    private final Config config;
    private final PrintStream progress;
    private final Thread shutdownHook = new Thread(this::stop, "stop-private-mariadb");
    private Path directory;
    private Process server;
    private int port;

    public PrivateMariaDb(Config config, PrintStream progress) {
        this.config = requireNonNull(config, "config is null");
        this.progress = requireNonNull(progress, "progress is null");
    }

    /** Installs, starts and waits for the server; stops it and deletes its files again when that fails. */
    public PrivateMariaDb start() throws IOException, InterruptedException {
        if (directory != null) {
            throw new IllegalStateException("already started");
        }
        Path serverProgram = program("mariadbd");
        Path installer = program("mariadb-install-db");
        directory = Files.createTempDirectory("duet-mariadb");
        // The JVM does not run finally blocks on Ctrl-C; the hook keeps an interrupted run from leaving the server.
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            List<String> runAs = runAs(directory);
            install(installer, runAs);
            port = new LoopbackPorts().allocate();
            launch(serverProgram, runAs);
            awaitConnections();
            progress.printf("mariadb: %s on 127.0.0.1:%d (buffer pool %s), data in %s%n", version(), port,
                    config.bufferPoolSize(), directory);
            return this;
        } catch (IOException | InterruptedException | RuntimeException e) {
            try {
                close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** A JDBC URL for {@code database} as root over TCP. */
    public String jdbcUrl(String database) {
        if (server == null) {
            throw new IllegalStateException("not started");
        }
        return "jdbc:mysql://127.0.0.1:" + port + "/" + database + "?user=root";
    }

    private static Path program(String name) {
        Stream<Path> path = Stream.of(Optional.ofNullable(System.getenv("PATH")).orElse("").split(":"))
                .filter(entry -> !entry.isEmpty()).map(Path::of);
        return Stream.concat(path, SEARCH_PATH.stream()).map(folder -> folder.resolve(name))
                .filter(Files::isExecutable).findFirst()
                .orElseThrow(() -> new IllegalStateException(name + " is not installed (looked on PATH and in "
                        + SEARCH_PATH + "); bin/setup-test-tools mariadb installs Debian's mariadb-server"));
    }

    /** mariadbd refuses to run as root unless told to with --user=root. */
    private static List<String> runAs(Path ownDirectory) throws IOException {
        int owner = (Integer) Files.getAttribute(ownDirectory, "unix:uid");
        return owner == 0 ? List.of("--user=root") : List.of();
    }

    private Path log() {
        return directory.resolve("mariadbd.log");
    }

    private void install(Path installer, List<String> runAs) throws IOException, InterruptedException {
        progress.printf("mariadb: creating a data directory with %s%n", installer);
        List<String> command = new ArrayList<>(List.of(installer.toString(), "--no-defaults"));
        command.addAll(runAs);
        command.addAll(List.of("--datadir=" + directory.resolve("data"), "--auth-root-authentication-method=normal",
                "--skip-test-db", "--skip-name-resolve"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(log().toFile())).start();
        if (!process.waitFor(INSTALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw failure("mariadb-install-db did not finish in " + INSTALL_TIMEOUT.toSeconds() + " s");
        }
        if (process.exitValue() != 0) {
            throw failure("mariadb-install-db failed with exit code " + process.exitValue());
        }
    }

    private void launch(Path serverProgram, List<String> runAs) throws IOException {
        progress.printf("mariadb: starting %s on 127.0.0.1:%d%n", serverProgram, port);
        List<String> command = new ArrayList<>(List.of(serverProgram.toString(), "--no-defaults"));
        command.addAll(runAs);
        command.addAll(List.of(
                "--datadir=" + directory.resolve("data"),
                "--socket=" + directory.resolve("mariadbd.sock"),
                "--pid-file=" + directory.resolve("mariadbd.pid"),
                "--tmpdir=" + directory,
                "--port=" + port,
                "--bind-address=127.0.0.1",
                "--skip-name-resolve",
                "--skip-log-bin",
                "--innodb-buffer-pool-size=" + config.bufferPoolSize().bytes(),
                "--max-statement-time=" + config.statementLimit().toSeconds()));
        server = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(log().toFile())).start();
    }

    private void awaitConnections() throws IOException, InterruptedException {
        long start = System.nanoTime();
        long deadline = start + config.startTimeout().toNanos();
        long nextReport = start + PROGRESS_INTERVAL.toNanos();
        while (true) {
            if (!server.isAlive()) {
                throw failure("mariadbd exited with code " + server.exitValue() + " while starting");
            }
            try (Connection connection = DriverManager.getConnection(jdbcUrl("") + "&useSSL=false&connectTimeout=2000");
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
                return;
            } catch (SQLException e) {
                long now = System.nanoTime();
                if (now > deadline) {
                    throw failure("mariadbd did not accept connections within " + config.startTimeout().toSeconds()
                            + " s (last error: " + e.getMessage() + ")");
                }
                if (now > nextReport) {
                    progress.printf("mariadb: waiting for the server to accept connections (%d s)%n",
                            TimeUnit.NANOSECONDS.toSeconds(now - start));
                    nextReport = now + PROGRESS_INTERVAL.toNanos();
                }
                Thread.sleep(200);
            }
        }
    }

    private String version() {
        try (Connection connection = DriverManager.getConnection(jdbcUrl(DATABASE) + "&useSSL=false");
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT VERSION()")) {
            return result.next() ? "MariaDB " + result.getString(1) : "MariaDB";
        } catch (SQLException e) {
            return "MariaDB";
        }
    }

    /** An error that names a copy of the log and shows its end, since the directory is deleted on failure. */
    private IllegalStateException failure(String what) throws IOException {
        Path kept = Files.createTempFile("duet-mariadb-", ".log");
        Files.copy(log(), kept, StandardCopyOption.REPLACE_EXISTING);
        List<String> lines = Files.readAllLines(kept);
        String tail = String.join(System.lineSeparator(),
                lines.subList(Math.max(0, lines.size() - LOG_LINES_SHOWN), lines.size()));
        return new IllegalStateException(what + "; its log is " + kept + ", which ends:" + System.lineSeparator() + tail);
    }

    /** Stops the server and deletes its files; safe to call more than once. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to run stop() itself
        }
        stop();
    }

    private synchronized void stop() {
        if (server != null) {
            progress.println("mariadb: stopping the server");
            server.destroy();
            try {
                if (!server.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    progress.printf("mariadb: the server did not stop in %d s; killing it%n", STOP_TIMEOUT.toSeconds());
                    server.destroyForcibly().waitFor();
                }
            } catch (InterruptedException e) {
                server.destroyForcibly();
                Thread.currentThread().interrupt();
            }
            server = null;
        }
        if (directory != null) {
            try (Stream<Path> paths = Files.walk(directory)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete " + directory, e);
            }
            directory = null;
        }
    }
}
