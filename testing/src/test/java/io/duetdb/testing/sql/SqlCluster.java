package io.duetdb.testing.sql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;

/**
 * A test class's cluster: one placement member, {@code stores} stores and one SQL server with the test defaults,
 * started before the class's own {@code @BeforeAll} methods and closed after its {@code @AfterAll} ones, in a
 * temporary directory of its own. Register it as {@code @RegisterExtension static final SqlCluster sqlCluster = new
 * SqlCluster(3);}.
 */
final class SqlCluster implements BeforeAllCallback, AfterAllCallback {
    private final int stores;
    private Path root;
    private LocalCluster cluster;
    private SqlServer server;

    SqlCluster(int stores) {
        this.stores = stores;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        root = Files.createTempDirectory(context.getRequiredTestClass().getSimpleName());
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(stores);
        server = SqlTesting.startServer(cluster, config -> { });
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
            deleteRecursively(root);
        }
    }

    LocalCluster cluster() {
        return cluster;
    }

    SqlServer server() {
        return server;
    }

    /** Connector/J's URL for root on the {@code test} database. */
    String url() {
        return "jdbc:mysql://" + server.address() + "/test?user=root&useSSL=false&allowPublicKeyRetrieval=true";
    }

    private static void deleteRecursively(Path directory) {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
