package io.duetdb.testing.sql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.duetdb.common.net.LoopbackPorts;

/**
 * A MariaDB server of a test's own, for comparing answers MySQL and MariaDB share: a data directory under a
 * temporary directory (mariadb-install-db), mariadbd on 127.0.0.1 at a free port with no option files, a database
 * {@code test}; {@link #close} stops it and deletes the directory. {@link #startIfInstalled} gives nothing when
 * Debian's mariadb-server is not installed ({@code bin/setup-test-tools mariadb}).
 */
final class PrivateMariaDbServer implements AutoCloseable {
    private static final List<Path> PROGRAMS = List.of(Path.of("/usr/sbin"), Path.of("/usr/bin"));
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

    private final Path directory;
    private final Process server;
    private final int port;

    private PrivateMariaDbServer(Path directory, Process server, int port) {
        this.directory = directory;
        this.server = server;
        this.port = port;
    }

    static Optional<PrivateMariaDbServer> startIfInstalled() throws IOException, InterruptedException {
        Optional<Path> serverProgram = program("mariadbd");
        Optional<Path> installer = program("mariadb-install-db");
        if (serverProgram.isEmpty() || installer.isEmpty()) {
            System.out.println("mariadb: not installed; comparing with the stated MySQL answers only");
            return Optional.empty();
        }
        Path directory = Files.createTempDirectory("duet-test-mariadb");
        List<String> runAs = (Integer) Files.getAttribute(directory, "unix:uid") == 0 ? List.of("--user=root")
                : List.of();
        List<String> install = new ArrayList<>(List.of(installer.get().toString(), "--no-defaults"));
        install.addAll(runAs);
        install.addAll(List.of("--datadir=" + directory.resolve("data"), "--auth-root-authentication-method=normal",
                "--skip-test-db", "--skip-name-resolve"));
        Path log = directory.resolve("mariadbd.log");
        Process installing = new ProcessBuilder(install).redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(log.toFile())).start();
        if (!installing.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || installing.exitValue() != 0) {
            installing.destroyForcibly();
            throw new IllegalStateException("mariadb-install-db failed; see " + log);
        }
        int port = new LoopbackPorts().allocate();
        List<String> command = new ArrayList<>(List.of(serverProgram.get().toString(), "--no-defaults"));
        command.addAll(runAs);
        command.addAll(List.of("--datadir=" + directory.resolve("data"), "--socket=" + directory.resolve("sock"),
                "--pid-file=" + directory.resolve("pid"), "--tmpdir=" + directory, "--port=" + port,
                "--bind-address=127.0.0.1", "--skip-name-resolve", "--skip-log-bin",
                "--innodb-buffer-pool-size=67108864"));
        Process server = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(log.toFile())).start();
        PrivateMariaDbServer started = new PrivateMariaDbServer(directory, server, port);
        try {
            started.awaitConnections();
        } catch (RuntimeException | InterruptedException e) {
            started.close();
            throw e;
        }
        return Optional.of(started);
    }

    private static Optional<Path> program(String name) {
        return PROGRAMS.stream().map(folder -> folder.resolve(name)).filter(Files::isExecutable).findFirst();
    }

    int port() {
        return port;
    }

    String url() {
        return "jdbc:mysql://127.0.0.1:" + port + "/test?user=root&useSSL=false";
    }

    private void awaitConnections() throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            if (!server.isAlive()) {
                throw new IllegalStateException("mariadbd exited with " + server.exitValue() + "; see "
                        + directory.resolve("mariadbd.log"));
            }
            try (Connection connection = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port
                    + "/?user=root&useSSL=false&connectTimeout=2000"); Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE IF NOT EXISTS test");
                return;
            } catch (SQLException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("mariadbd did not accept connections in time", e);
                }
                Thread.sleep(200);
            }
        }
    }

    @Override
    public void close() {
        server.destroy();
        try {
            if (!server.waitFor(1, TimeUnit.MINUTES)) {
                server.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            server.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + directory, e);
        }
    }
}
