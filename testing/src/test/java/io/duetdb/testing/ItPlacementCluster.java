package io.duetdb.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.time.Timestamp;

class ItPlacementCluster {
    @TempDir
    Path root;

    @Test
    void servesTimestamps() {
        try (LocalPlacementCluster cluster = new LocalPlacementCluster(root, 3, config -> { }).start();
                PlacementClient client = cluster.newClient()) {
            cluster.awaitLeader(Duration.ofSeconds(30));
            Timestamp previous = client.getTimestamp();
            for (int i = 0; i < 1000; i++) {
                Timestamp next = client.getTimestamp();
                assertThat(next).isGreaterThan(previous);
                previous = next;
            }
        }
    }
}
