package io.duetdb.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.net.LoopbackPorts;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/** Start-up failures of one placement member: each is one clear error, and nothing is left running. */
class PlacementServerTest {
    @TempDir
    Path directory;

    private final LoopbackPorts ports = new LoopbackPorts();

    private int freePort() {
        return ports.allocate();
    }

    private PlacementConfig config() throws IOException {
        int client = freePort();
        int peer = freePort();
        return new PlacementConfig().setDataDir(directory.resolve("pd-1"))
                .setClientAddress(new HostAndPort("127.0.0.1", client))
                .setPeerAddress(new HostAndPort("127.0.0.1", peer))
                .setStatusAddress(new HostAndPort("127.0.0.1", freePort()))
                .setInitialCluster(List.of("pd-1=127.0.0.1:" + peer));
    }

    @Test
    void aClientPortInUseIsAOneLineError() throws Exception {
        PlacementConfig config = config();
        try (ServerSocket taken = new ServerSocket(config.clientAddress().port(), 1, InetAddress.getByName("127.0.0.1"))) {
            assertThatThrownBy(() -> new PlacementServer(config).start())
                    .isInstanceOf(DuetException.class)
                    .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.ADDRESS_IN_USE))
                    .hasMessage("placement pd-1: client address " + config.clientAddress() + " is already in use");
        }
        // Everything was released: the member starts once the port is free.
        try (PlacementServer server = new PlacementServer(config).start()) {
            assertThat(server.clientAddress()).isEqualTo(config.clientAddress());
        }
    }

    @Test
    void aStatusPortInUseIsAOneLineError() throws Exception {
        PlacementConfig config = config();
        try (ServerSocket taken = new ServerSocket(config.statusAddress().port(), 1, InetAddress.getByName("127.0.0.1"))) {
            assertThatThrownBy(() -> new PlacementServer(config).start())
                    .hasMessageContaining("status address " + config.statusAddress() + " is already in use");
        }
    }

    @Test
    void aRaftPortInUseIsAOneLineError() throws Exception {
        PlacementConfig config = config();
        try (ServerSocket taken = new ServerSocket(config.peerAddress().port(), 1, InetAddress.getByName("127.0.0.1"))) {
            assertThatThrownBy(() -> new PlacementServer(config).start())
                    .isInstanceOf(DuetException.class)
                    .hasMessageContaining("cannot start Raft on " + config.peerAddress())
                    .hasMessageContaining("already in use");
        }
    }

    @Test
    void aDataDirectoryOfAnotherFormatIsRefused() throws Exception {
        PlacementConfig config = config();
        Files.createDirectories(config.dataDir());
        Files.writeString(config.dataDir().resolve("DUETDB_VERSION"), "format=99\ncomponent=placement\nwritten-by=9.0\n");
        assertThatThrownBy(() -> new PlacementServer(config).start())
                .isInstanceOf(DuetException.class)
                .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.INCOMPATIBLE_DATA_DIRECTORY))
                .hasMessageContaining("was written in format 99");
    }
}
