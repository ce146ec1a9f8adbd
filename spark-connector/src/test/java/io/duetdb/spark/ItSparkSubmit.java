package io.duetdb.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;

/**
 * A real spark-submit (Spark's SparkSubmit in a JVM of its own, as bin/spark-submit starts it) of an application
 * jar with the connector given as {@code --jars}: the catalog from {@code --conf}, a read and an INSERT INTO through
 * Spark SQL, the rows visible through the SQL server. The child's classpath holds Spark and its dependencies but no
 * DuetDB class outside the connector jar.
 */
class ItSparkSubmit {
    private static final long SUBMIT_TIMEOUT_SECONDS = 300;

    @TempDir
    static Path root;
    static LocalCluster cluster;
    static SqlServer server;

    @BeforeAll
    static void start() throws Exception {
        cluster = new LocalCluster(root.resolve("cluster"), 1, config -> { }, config -> { }).start(1);
        server = SparkTesting.startServer(cluster, config -> { });
        try (Connection connection = DriverManager.getConnection(SparkTesting.jdbcUrl(server, "test"));
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE source (id INT PRIMARY KEY, amount DECIMAL(10,2))");
            statement.execute("CREATE TABLE target (id INT PRIMARY KEY, amount DECIMAL(10,2))");
            SparkTesting.insertRows(statement, "source", 1, 100, i -> i + ", " + i + ".50");
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        cluster.close();
    }

    @Test
    void anApplicationSubmittedWithTheConnectorJarReadsAndWrites() throws Exception {
        Path connector = Path.of(System.getProperty("duet.connector.jar"));
        assertThat(connector).exists();
        Path application = applicationJar();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(System.getProperty("duet.spark.jvm.flags", "").trim().split("\\s+")));
        command.addAll(List.of("-Xmx1g", "-cp", sparkClasspath(), "org.apache.spark.deploy.SparkSubmit",
                "--master", "local[2]",
                "--conf", "spark.ui.enabled=false",
                "--conf", "spark.sql.catalog.duet=io.duetdb.spark.DuetCatalog",
                "--conf", "spark.sql.catalog.duet.pd=" + SparkTesting.placement(cluster),
                "--jars", connector.toString(),
                "--class", SubmitApp.class.getName(),
                application.toString()));
        command.removeIf(String::isEmpty);
        Path output = root.resolve("submit.log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean finished = process.waitFor(SUBMIT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!finished) {
            process.destroyForcibly();
        }
        String log = Files.readString(output);
        assertThat(finished).as("spark-submit finished within %d s; its output:%n%s", SUBMIT_TIMEOUT_SECONDS, log).isTrue();
        assertThat(process.exitValue()).as(log).isZero();
        assertThat(log).contains("source rows=100 sum=5100.00").contains("target rows=100");
        try (Connection connection = DriverManager.getConnection(SparkTesting.jdbcUrl(server, "test"));
                Statement statement = connection.createStatement()) {
            assertThat(SparkTesting.rows(statement, "SELECT count(*), sum(amount) FROM target")).containsExactly("100|10200.00");
        }
    }

    /** The application's one class in a jar, as a user's build would produce it. */
    private static Path applicationJar() throws IOException {
        Path jar = root.resolve("submit-app.jar");
        String entry = SubmitApp.class.getName().replace('.', '/') + ".class";
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out);
                InputStream in = SubmitApp.class.getClassLoader().getResourceAsStream(entry)) {
            jarOut.putNextEntry(new JarEntry(entry));
            in.transferTo(jarOut);
            jarOut.closeEntry();
        }
        return jar;
    }

    /** This JVM's classpath without DuetDB's own modules and classes: Spark and third-party jars. */
    private static String sparkClasspath() {
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            boolean duet = entry.contains(File.separator + "duetdb-") || entry.contains(File.separator + "io" + File.separator
                    + "duetdb" + File.separator) || !entry.endsWith(".jar");
            if (!duet) {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}
