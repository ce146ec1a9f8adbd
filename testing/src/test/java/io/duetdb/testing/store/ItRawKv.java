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
import io.duetdb.common.keys.KvLimits;
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

            // The largest values replicate (an entry past Ratis' appender buffer would stop the region for good),
            // concurrent ones are split over several entries, and a batch past one write is cut in pieces.
            byte[] largest = new byte[KvLimits.MAX_VALUE_BYTES];
            java.util.Arrays.fill(largest, (byte) 7);
            List<java.util.concurrent.CompletableFuture<Void>> writes = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                writes.add(kv.putAsync(bytes("largest-" + i), largest));
            }
            writes.forEach(java.util.concurrent.CompletableFuture::join);
            assertThat(kv.get(bytes("largest-2"))).hasValueSatisfying(value -> assertThat(value).isEqualTo(largest));
            java.util.Map<byte[], byte[]> batch = new java.util.LinkedHashMap<>();
            for (int i = 0; i < 20; i++) {
                batch.put(bytes(String.format("batch-%02d", i)), new byte[1 << 20]);
            }
            kv.batchPut(batch);
            assertThat(kv.scan(bytes("batch-"), bytes("batch."), 100, false)).hasSize(20);
            kv.put(bytes("after-large"), bytes("still writable"));
            assertThat(kv.get(bytes("after-large"))).hasValue(bytes("still writable"));
        }
    }
}
