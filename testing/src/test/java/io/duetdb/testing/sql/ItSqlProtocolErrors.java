package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;

/** Bad input at the protocol level: the offending connection is closed, the server keeps serving. */
class ItSqlProtocolErrors {
    @TempDir
    static Path root;
    static LocalCluster cluster;
    static SqlServer server;

    @BeforeAll
    static void start() {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
        server = SqlTesting.startServer(cluster, config -> config.setMaxAllowedPacket(1024 * 1024));
    }

    @AfterAll
    static void stop() {
        server.close();
        cluster.close();
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + server.address() + "/test?user=root&useSSL=false");
    }

    /** Reads one packet's payload (after the 4-byte header); null at end of stream. */
    static byte[] readPacket(InputStream in) throws Exception {
        DataInputStream data = new DataInputStream(in);
        byte[] header = new byte[4];
        try {
            data.readFully(header);
        } catch (java.io.EOFException e) {
            return null;
        }
        int length = (header[0] & 0xFF) | (header[1] & 0xFF) << 8 | (header[2] & 0xFF) << 16;
        byte[] payload = new byte[length];
        data.readFully(payload);
        return payload;
    }

    static void writePacket(OutputStream out, int sequence, byte[] payload) throws Exception {
        out.write(new byte[] {(byte) payload.length, (byte) (payload.length >> 8), (byte) (payload.length >> 16),
                (byte) sequence});
        out.write(payload);
        out.flush();
    }

    /** Logs in as root (empty password) over a raw socket; returns the socket ready for commands. */
    static Socket login() throws Exception {
        Socket socket = new Socket(server.address().host(), server.address().port());
        socket.setSoTimeout(10_000);
        assertThat(readPacket(socket.getInputStream())[0]).isEqualTo((byte) 10);
        byte[] response = new byte[32 + 5 + 1 + 1];
        int capabilities = 0x0200 | 0x8000 | 0x80000; // PROTOCOL_41, SECURE_CONNECTION, PLUGIN_AUTH
        response[0] = (byte) capabilities;
        response[1] = (byte) (capabilities >> 8);
        response[2] = (byte) (capabilities >> 16);
        response[8] = 46;
        System.arraycopy("root".getBytes(StandardCharsets.US_ASCII), 0, response, 32, 4);
        response[36] = 0; // end of user name
        response[37] = 0; // empty auth response
        byte[] withPlugin = new byte[response.length + "mysql_native_password".length()];
        System.arraycopy(response, 0, withPlugin, 0, 38);
        System.arraycopy("mysql_native_password".getBytes(StandardCharsets.US_ASCII), 0, withPlugin, 38, 21);
        writePacket(socket.getOutputStream(), 1, withPlugin);
        assertThat(readPacket(socket.getInputStream())[0]).as("OK after login").isEqualTo((byte) 0);
        return socket;
    }

    static int errorCode(byte[] payload) {
        assertThat(payload[0]).as("an ERR packet").isEqualTo((byte) 0xFF);
        return (payload[1] & 0xFF) | (payload[2] & 0xFF) << 8;
    }

    @Test
    void malformedCommandsCloseOnlyThatConnection() throws Exception {
        try (Socket socket = login()) {
            writePacket(socket.getOutputStream(), 0, new byte[] {0x17, 1, 2}); // COM_STMT_EXECUTE, truncated
            byte[] reply = readPacket(socket.getInputStream());
            assertThat(reply[0]).isEqualTo((byte) 0xFF);
            assertThat(readPacket(socket.getInputStream())).as("connection closed").isNull();
        }
        try (Socket socket = login()) {
            writePacket(socket.getOutputStream(), 0, new byte[] {(byte) 0x7E}); // no such command
            assertThat(errorCode(readPacket(socket.getInputStream()))).isEqualTo(1047);
        }
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT 1")) {
            assertThat(result.next()).isTrue();
        }
    }

    @Test
    void oversizedPacketsGet1153AndTheConnectionCloses() throws Exception {
        try (Socket socket = login()) {
            OutputStream out = socket.getOutputStream();
            // A header announcing 16 MiB - 1 bytes, over the server's 1 MiB max_allowed_packet, and the first
            // payload byte: the server answers before the rest arrives (sending more would race its close).
            out.write(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0, 0x03});
            out.flush();
            byte[] reply = readPacket(socket.getInputStream());
            assertThat(errorCode(reply)).isEqualTo(1153);
        }
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT 2")) {
            assertThat(result.next()).isTrue();
        }
    }

    @Test
    void maxAllowedPacketReportsTheServersLimitAndClientsHonourIt() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SELECT @@max_allowed_packet, @@global.max_allowed_packet,"
                    + " @@session.max_allowed_packet")).containsExactly("1048576|1048576|1048576");
            assertThat(SqlTesting.rows(statement, "SHOW VARIABLES LIKE 'max_allowed_packet'"))
                    .containsExactly("max_allowed_packet|1048576");
            assertThat(SqlTesting.rows(statement, "SHOW GLOBAL VARIABLES LIKE 'max_allowed_packet'"))
                    .containsExactly("max_allowed_packet|1048576");
            assertThat(SqlTesting.rows(statement, "SELECT @@default_authentication_plugin"))
                    .containsExactly("mysql_native_password");
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET max_allowed_packet = 4096"))).isEqualTo(1621);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET GLOBAL max_allowed_packet = 4096")))
                    .isEqualTo(1238);
            // Connector/J read the limit at connect and refuses a larger statement itself, keeping the connection.
            String big = "SELECT '" + "x".repeat(2 * 1024 * 1024) + "'";
            SQLException refused = null;
            try {
                statement.executeQuery(big);
            } catch (SQLException e) {
                refused = e;
            }
            assertThat((Throwable) refused).isNotNull().hasMessageContaining("1,048,576");
            assertThat(SqlTesting.rows(statement, "SELECT 3")).containsExactly("3");
        }
    }

    @Test
    void aClientThatDisconnectsInsideATransactionReleasesItsLocks() throws Exception {
        try (Connection setup = connect(); Statement statement = setup.createStatement()) {
            statement.execute("CREATE TABLE held (id INT PRIMARY KEY, v INT)");
            statement.executeUpdate("INSERT INTO held VALUES (1, 0)");
        }
        Connection holder = connect();
        holder.setAutoCommit(false);
        try (Statement statement = holder.createStatement()) {
            statement.executeUpdate("UPDATE held SET v = 1 WHERE id = 1");
        }
        holder.abort(Runnable::run); // the socket goes away without COMMIT or ROLLBACK
        long start = System.nanoTime();
        try (Connection other = connect(); Statement statement = other.createStatement()) {
            other.setAutoCommit(false);
            assertThat(statement.executeUpdate("UPDATE held SET v = 2 WHERE id = 1")).isEqualTo(1);
            other.commit();
            try (ResultSet result = statement.executeQuery("SELECT v FROM held WHERE id = 1")) {
                assertThat(result.next()).isTrue();
                assertThat(result.getInt(1)).isEqualTo(2);
            }
        }
        // Released by the rollback on disconnect, well before the 20 s lock TTL would have expired it.
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }
}
