package io.duetdb.testing.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.testing.CtlRun;
import io.duetdb.testing.LocalCluster;

/** `duet ctl` against placement and three stores: raw reads and writes, split, leader transfer, merge. */
class ItCtlStore {
    @TempDir
    Path root;

    @Test
    void rawKeysAndRegionOperationsFromTheShell() throws Exception {
        try (LocalCluster cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
                PlacementClient placement = cluster.newPlacementClient()) {
            String pd = cluster.placement().config(0).clientAddress().toString();
            LocalCluster.await("three voters", Duration.ofSeconds(60), () -> placement.getRegion(new byte[0])
                    .map(info -> info.getRegion().getPeersList().stream().filter(p -> p.getRole() == PeerRole.VOTER)
                            .count() == 3 && info.hasLeader())
                    .orElse(false));

            assertThat(CtlRun.run(pd, "raw", "put", "hello", "world").json().get("put").asText()).isEqualTo("hello");
            for (String key : List.of("a1", "b2", "n3", "x4")) {
                assertThat(CtlRun.run(pd, "raw", "put", key, "value-" + key).exitCode()).isZero();
            }
            assertThat(CtlRun.run(pd, "raw", "get", "hello").json().get("value").asText()).isEqualTo("world");
            assertThat(CtlRun.run(pd, "raw", "get", "absent").json().get("value").isNull()).isTrue();
            assertThat(fieldNames(CtlRun.run(pd, "raw", "scan", "--start", "b", "--end", "y").json()))
                    .containsExactly("b2", "hello", "n3", "x4");
            assertThat(fieldNames(CtlRun.run(pd, "raw", "scan", "--reverse", "--limit", "2").json()))
                    .containsExactly("x4", "n3");
            assertThat(CtlRun.run(pd, "raw", "put", "--hex", "00ff", "0102").exitCode()).isZero();
            assertThat(CtlRun.run(pd, "raw", "get", "--hex", "00ff").json().get("value").asText()).isEqualTo("0x0102");

            CtlRun reversed = CtlRun.run(pd, "raw", "scan", "--start", "z", "--end", "a");
            assertThat(reversed.exitCode()).isEqualTo(1);
            assertThat(reversed.err().strip()).contains("reversed").doesNotContain("\n");
            assertThat(CtlRun.run(pd, "raw", "get", "--hex", "zz").exitCode()).isEqualTo(2);
            assertThat(CtlRun.run(pd, "raw", "scan", "--limit", "0").exitCode()).isEqualTo(2);

            long whole = CtlRun.run(pd, "region", "m").json().get("id").asLong();
            JsonNode split = CtlRun.run(pd, "split", Long.toString(whole), "--key", "m").json();
            assertThat(split.get("regions")).hasSize(2);
            JsonNode regions = CtlRun.run(pd, "regions").json();
            assertThat(regions.get("count").asInt()).isEqualTo(2);
            long left = CtlRun.run(pd, "region", "a1").json().get("id").asLong();
            long right = CtlRun.run(pd, "region", "n3").json().get("id").asLong();
            assertThat(left).isNotEqualTo(right);
            assertThat(CtlRun.run(pd, "raw", "get", "x4").json().get("value").asText()).isEqualTo("value-x4");

            // The new region's leader reports itself with its first heartbeat, shortly after the split.
            LocalCluster.await("the split-off region's leader reported", Duration.ofSeconds(30), () -> placement
                    .getRegionById(right).map(info -> info.hasLeader() && info.getLeader().getStoreId() != 0).orElse(false));
            JsonNode rightRegion = CtlRun.run(pd, "region", Long.toString(right)).json();
            long leaderStore = rightRegion.get("leader").get("store_id").asLong();
            long otherStore = -1;
            for (JsonNode peer : rightRegion.get("peers")) {
                if (peer.get("store_id").asLong() != leaderStore) {
                    otherStore = peer.get("store_id").asLong();
                }
            }
            JsonNode transfer = CtlRun.run(pd, "transfer-leader", Long.toString(right), Long.toString(otherStore)).json();
            assertThat(transfer.get("to_store").asLong()).isEqualTo(otherStore);
            long expectedLeader = otherStore;
            LocalCluster.await("the new leader reported", Duration.ofSeconds(30), () -> placement.getRegionById(right)
                    .map(info -> info.getLeader().getStoreId() == expectedLeader).orElse(false));
            assertThat(CtlRun.run(pd, "raw", "put", "y5", "after-transfer").exitCode()).isZero();

            JsonNode merged = CtlRun.run(pd, "merge", Long.toString(right), Long.toString(left)).json();
            assertThat(merged.get("region").get("id").asLong()).isEqualTo(left);
            assertThat(merged.get("region").get("range").asText()).isEqualTo("[-inf, +inf)");
            LocalCluster.await("placement sees one region", Duration.ofSeconds(30), () -> {
                try {
                    return CtlRun.run(pd, "regions").json().get("count").asInt() == 1;
                } catch (Exception e) {
                    return false;
                }
            });
            assertThat(fieldNames(CtlRun.run(pd, "raw", "scan").json()))
                    .contains("a1", "b2", "hello", "n3", "x4", "y5");
            assertThat(CtlRun.run(pd, "raw", "delete", "y5").exitCode()).isZero();
            assertThat(CtlRun.run(pd, "raw", "get", "y5").json().get("value").isNull()).isTrue();

            JsonNode put = CtlRun.run(pd, "txn", "put", "tx-a", "1", "tx-b", "2").json();
            assertThat(put.get("commit_ts").asLong()).isGreaterThan(put.get("start_ts").asLong());
            JsonNode got = CtlRun.run(pd, "txn", "get", "tx-a", "tx-b", "tx-none").json().get("values");
            assertThat(got.get("tx-a").asText()).isEqualTo("1");
            assertThat(got.get("tx-none").isNull()).isTrue();
            assertThat(CtlRun.run(pd, "txn", "delete", "--optimistic", "tx-a").exitCode()).isZero();
            assertThat(fieldNames(CtlRun.run(pd, "txn", "scan", "--start", "tx-", "--end", "tx-z").json().get("pairs")))
                    .containsExactly("tx-b");
            assertThat(CtlRun.run(pd, "txn", "put", "odd").exitCode()).isEqualTo(2);

            CtlRun unknownMerge = CtlRun.run(pd, "merge", "987654", Long.toString(left));
            assertThat(unknownMerge.exitCode()).isEqualTo(1);
            assertThat(unknownMerge.err().strip()).startsWith("error:").doesNotContain("\n");
        }
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
