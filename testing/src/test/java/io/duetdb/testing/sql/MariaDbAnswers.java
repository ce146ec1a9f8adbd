package io.duetdb.testing.sql;

import static java.util.Objects.requireNonNull;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test class's private MariaDB (started when it is installed here, stopped after the class) and the
 * {@link SharedAnswers} that ask it and the class's DuetDB cluster the same statements. Register it after the
 * cluster, so that the cluster is up first.
 */
final class MariaDbAnswers implements BeforeAllCallback, AfterAllCallback {
    private final SqlCluster sqlCluster;
    private PrivateMariaDbServer mariaDb;

    MariaDbAnswers(SqlCluster sqlCluster) {
        this.sqlCluster = requireNonNull(sqlCluster, "sqlCluster is null");
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        mariaDb = PrivateMariaDbServer.startIfInstalled().orElse(null);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (mariaDb != null) {
            mariaDb.close();
            mariaDb = null;
        }
    }

    /** The private MariaDB while the class runs, or null when MariaDB is not installed here. */
    PrivateMariaDbServer server() {
        return mariaDb;
    }

    SharedAnswers answers() {
        return new SharedAnswers(sqlCluster::url, mariaDb);
    }
}
