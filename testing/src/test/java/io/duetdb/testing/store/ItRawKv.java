package io.duetdb.testing.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.client.kv.RawKvClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.proto.kv.KeyValue;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.testing.LocalCluster;

class ItRawKv {
    @TempDir
    Path root;

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void writesReplicateToThreeStoresAndReadBack() {
        try (LocalCluster cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
                PlacementClient placement = cluster.newPlacementClient();
                RawKvClient kv = cluster.newRawKvClient(placement)) {
            kv.put(bytes("hello"), bytes("world"));
            assertThat(kv.get(bytes("hello"))).hasValue(bytes("world"));
            for (int i = 0; i < 100; i++) {
                kv.put(bytes(String.format("k%03d", i)), bytes("v" + i));
            }
            List<KeyValue> scanned = kv.scan(bytes("k"), bytes("l"), 1000, false);
            assertThat(scanned).hasSize(100);
            LocalCluster.await("three voters", Duration.ofSeconds(60), () -> placement.getRegion(bytes("k")).map(info ->
                    info.getRegion().getPeersList().stream().filter(p -> p.getRole() == PeerRole.VOTER).count() == 3)
                    .orElse(false));
            kv.put(bytes("after"), bytes("replication"));
            assertThat(kv.get(bytes("after"))).hasValue(bytes("replication"));
            assertThat(kv.get(bytes("k050"))).hasValue(bytes("v50"));
        }
    }
}
