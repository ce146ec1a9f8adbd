package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.sql.catalog.AuthenticationPlugin;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;

/**
 * Logins through MySQL Connector/J with both password plugins: caching_sha2_password's full authentication over
 * TLS and over plain TCP with the server's RSA key, its fast authentication afterwards, wrong passwords, and
 * switches between the plugins in both directions.
 */
class ItSqlAuthentication {
    private static final String PLUGIN = "duet_sql_authentications_total";
    private static final String SHA2 = "plugin=\"caching_sha2_password\"";

    @TempDir
    static Path root;
    static LocalCluster cluster;
    /** Proposes mysql_native_password in its greeting (the default). */
    static SqlServer nativeFirst;
    /** Proposes caching_sha2_password, and creates accounts with it unless told otherwise. */
    static SqlServer sha2First;

    @BeforeAll
    static void start() {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
        nativeFirst = SqlTesting.startServer(cluster, config -> { });
        sha2First = SqlTesting.startServer(cluster,
                config -> config.setDefaultAuthenticationPlugin(AuthenticationPlugin.CACHING_SHA2_PASSWORD));
    }

    @AfterAll
    static void stop() {
        if (nativeFirst != null) {
            nativeFirst.close();
        }
        if (sha2First != null) {
            sha2First.close();
        }
        cluster.close();
    }

    static Connection connect(SqlServer server, String user, String password, String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + server.address() + "/?" + options, user, password);
    }

    static String currentUser(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            return SqlTesting.rows(statement, "SELECT USER()").get(0);
        }
    }

    static int loginError(SqlServer server, String user, String password, String options) {
        return loginFailure(server, user, password, options).getErrorCode();
    }

    static SQLException loginFailure(SqlServer server, String user, String password, String options) {
        try (Connection connection = connect(server, user, password, options)) {
            throw new AssertionError("login of " + user + " succeeded");
        } catch (SQLException e) {
            return e;
        }
    }

    static double logins(SqlServer server, String method, String outcome) {
        return SqlTesting.metric(server, PLUGIN, SHA2, "method=\"" + method + "\"", "outcome=\"" + outcome + "\"");
    }

    static void admin(String... statements) throws SQLException {
        try (Connection connection = connect(nativeFirst, "root", "", "useSSL=false");
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    @Test
    void cachingSha2AccountLogsInFullyOverTlsThenFast() throws SQLException {
        admin("CREATE USER 'alice'@'%' IDENTIFIED WITH caching_sha2_password BY 'wonderland'");
        double fullBefore = logins(nativeFirst, "full", "ok");
        double fastBefore = logins(nativeFirst, "fast", "ok");

        // The greeting proposes mysql_native_password; the server switches the client to the account's plugin.
        // Nothing is cached yet: the client sends the password, in clear over TLS.
        try (Connection connection = connect(nativeFirst, "alice", "wonderland", "sslMode=REQUIRED")) {
            assertThat(currentUser(connection)).isEqualTo("alice@127.0.0.1");
        }
        assertThat(logins(nativeFirst, "full", "ok")).isEqualTo(fullBefore + 1);

        // Now cached: a plain connection that may not fetch the RSA key can only succeed by fast authentication.
        try (Connection connection = connect(nativeFirst, "alice", "wonderland", "useSSL=false")) {
            assertThat(currentUser(connection)).isEqualTo("alice@127.0.0.1");
        }
        assertThat(logins(nativeFirst, "fast", "ok")).isEqualTo(fastBefore + 1);
        assertThat(logins(nativeFirst, "full", "ok")).isEqualTo(fullBefore + 1);

        // A wrong password fails the scramble check, then the full check: 1045 either way.
        assertThat(loginError(nativeFirst, "alice", "looking-glass", "sslMode=REQUIRED")).isEqualTo(1045);
        assertThat(loginError(nativeFirst, "alice", "looking-glass", "useSSL=false&allowPublicKeyRetrieval=true"))
                .isEqualTo(1045);
        assertThat(loginError(nativeFirst, "alice", "", "useSSL=false")).isEqualTo(1045);

        // The cache is per server: the other server has not seen alice log in.
        assertThat((Throwable) loginFailure(sha2First, "alice", "wonderland", "useSSL=false"))
                .hasMessageContaining("Public Key Retrieval is not allowed");
        try (Connection connection = connect(sha2First, "alice", "wonderland", "sslMode=REQUIRED")) {
            assertThat(currentUser(connection)).isEqualTo("alice@127.0.0.1");
        }
    }

    @Test
    void cachingSha2AccountLogsInWithoutTlsThroughTheServersRsaKey() throws SQLException {
        admin("CREATE USER 'bob'@'%' IDENTIFIED WITH 'caching_sha2_password' BY 'b0b-p\u00e4ss'");
        double fullBefore = logins(nativeFirst, "full", "ok");
        String plain = "useSSL=false&allowPublicKeyRetrieval=true";
        try (Connection connection = connect(nativeFirst, "bob", "b0b-p\u00e4ss", plain)) {
            assertThat(currentUser(connection)).isEqualTo("bob@127.0.0.1");
        }
        assertThat(logins(nativeFirst, "full", "ok")).isEqualTo(fullBefore + 1);
        try (Connection connection = connect(nativeFirst, "bob", "b0b-p\u00e4ss", plain)) {
            assertThat(currentUser(connection)).isEqualTo("bob@127.0.0.1");
        }
        assertThat(logins(nativeFirst, "full", "ok")).isEqualTo(fullBefore + 1);
        assertThat(loginError(nativeFirst, "bob", "bob-pass", plain)).isEqualTo(1045);

        // A new password (and a new salt) leaves the cached one behind on every server.
        admin("ALTER USER 'bob'@'%' IDENTIFIED BY 'rotated'");
        assertThat(loginError(nativeFirst, "bob", "b0b-p\u00e4ss", plain)).isEqualTo(1045);
        try (Connection connection = connect(nativeFirst, "bob", "rotated", plain)) {
            assertThat(currentUser(connection)).isEqualTo("bob@127.0.0.1");
        }
        // ALTER USER ... IDENTIFIED WITH moves the account to the other plugin.
        admin("ALTER USER 'bob'@'%' IDENTIFIED WITH mysql_native_password BY 'native-now'");
        try (Connection connection = connect(nativeFirst, "bob", "native-now", "useSSL=false")) {
            assertThat(currentUser(connection)).isEqualTo("bob@127.0.0.1");
        }
        assertThat(loginError(nativeFirst, "bob", "rotated", plain)).isEqualTo(1045);
    }

    @Test
    void clientsAreSwitchedToTheAccountsPluginInBothDirections() throws SQLException {
        admin("CREATE USER 'carol'@'%' IDENTIFIED BY 'native-secret'",
                "CREATE USER 'dave'@'%' IDENTIFIED WITH caching_sha2_password BY 'sha2-secret'",
                "CREATE USER 'erin'@'%' IDENTIFIED WITH caching_sha2_password");
        String plain = "useSSL=false&allowPublicKeyRetrieval=true";
        for (SqlServer server : new SqlServer[] {nativeFirst, sha2First}) {
            // A native account from a client that started with caching_sha2_password (sha2First's greeting) and
            // a caching_sha2 account from one that started with mysql_native_password (nativeFirst's).
            try (Connection connection = connect(server, "carol", "native-secret", plain)) {
                assertThat(currentUser(connection)).isEqualTo("carol@127.0.0.1");
            }
            assertThat(loginError(server, "carol", "wrong", plain)).isEqualTo(1045);
            try (Connection connection = connect(server, "dave", "sha2-secret", plain)) {
                assertThat(currentUser(connection)).isEqualTo("dave@127.0.0.1");
            }
            try (Connection connection = connect(server, "erin", "", "useSSL=false")) {
                assertThat(currentUser(connection)).isEqualTo("erin@127.0.0.1");
            }
            assertThat(loginError(server, "erin", "something", plain)).isEqualTo(1045);
            assertThat(loginError(server, "nobody", "x", plain)).isEqualTo(1045);
        }
        // root keeps mysql_native_password and an empty password.
        try (Connection connection = connect(sha2First, "root", "", "useSSL=false")) {
            assertThat(currentUser(connection)).isEqualTo("root@127.0.0.1");
        }
    }

    @Test
    void createUserFollowsTheServersDefaultPluginAndRefusesUnknownOnes() throws SQLException {
        try (Connection connection = connect(sha2First, "root", "", "useSSL=false");
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE USER 'frank'@'%' IDENTIFIED BY 'default-plugin'");
            assertThat(ItSqlBasics.errorOf(() -> statement.execute(
                    "CREATE USER 'grace'@'%' IDENTIFIED WITH sha256_password BY 'x'"))).isEqualTo(1524);
        }
        double before = logins(nativeFirst, "full", "ok");
        try (Connection connection = connect(nativeFirst, "frank", "default-plugin", "sslMode=REQUIRED")) {
            assertThat(currentUser(connection)).isEqualTo("frank@127.0.0.1");
        }
        // frank authenticated with caching_sha2_password's full authentication: sha2First created him with it.
        assertThat(logins(nativeFirst, "full", "ok")).isEqualTo(before + 1);
    }
}
