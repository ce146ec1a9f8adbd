package io.duetdb.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.duetdb.cli.Main;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.Store;
import io.duetdb.proto.placement.RegionHeartbeatRequest;
import picocli.CommandLine;

/** `duet ctl` against a running three-member placement cluster: its JSON and its errors. */
class ItCtl {
    @TempDir
    static Path root;
    private static LocalPlacementCluster cluster;
    private static Region bootstrap;
    private static long storeId;

    @BeforeAll
    static void startCluster() {
        cluster = new LocalPlacementCluster(root, 3, config -> { }).start();
        cluster.awaitLeader(Duration.ofSeconds(30));
        try (PlacementClient client = cluster.newClient()) {
            var registered = client.registerStore(Store.newBuilder().setAddress("127.0.0.9:20160").build());
            storeId = registered.getStore().getId();
            bootstrap = registered.getBootstrapRegion();
            client.regionHeartbeat(RegionHeartbeatRequest.newBuilder().setRegion(bootstrap)
                    .setLeader(bootstrap.getPeers(0)).setApproximateSize(42).build());
        }
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    private static CtlRun ctl(String... arguments) {
        return CtlRun.run(cluster.config(1).clientAddress().toString(), arguments);
    }

    @Test
    void tsoPrintsIncreasingTimestamps() throws Exception {
        CtlRun first = ctl("tso");
        CtlRun second = ctl("tso");
        assertThat(first.exitCode()).isZero();
        long a = first.json().get("timestamp").asLong();
        assertThat(second.json().get("timestamp").asLong()).isGreaterThan(a);
        assertThat(first.json().get("physical").asLong()).isEqualTo(a >>> 18);
    }

    @Test
    void membersAndHealthNameTheLeader() throws Exception {
        JsonNode members = ctl("members").json();
        assertThat(members.get("members")).hasSize(3);
        String leader = members.get("leader").asText();
        assertThat(leader).startsWith("pd-");
        // A member started a moment ago may still be catching up under the load of the other tests: give it time.
        JsonNode health = ctl("health").json();
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        while (!health.get("members").findValues("healthy").stream().allMatch(JsonNode::asBoolean)
                && System.nanoTime() < deadline) {
            Thread.sleep(200);
            health = ctl("health").json();
        }
        assertThat(health.get("healthy").asBoolean()).isTrue();
        assertThat(health.get("members").findValues("healthy")).allMatch(JsonNode::asBoolean);
    }

    @Test
    void storesAndRegionsShowTheRegistry() throws Exception {
        JsonNode stores = ctl("stores").json();
        assertThat(stores.get("count").asInt()).isEqualTo(1);
        assertThat(stores.get("stores").get(0).get("id").asLong()).isEqualTo(storeId);
        assertThat(stores.get("stores").get(0).get("liveness").asText()).isEqualTo("UP");

        JsonNode regions = ctl("regions").json();
        assertThat(regions.get("count").asInt()).isEqualTo(1);
        JsonNode region = regions.get("regions").get(0);
        assertThat(region.get("range").asText()).isEqualTo("[-inf, +inf)");
        assertThat(region.get("leader").get("store_id").asLong()).isEqualTo(storeId);
        assertThat(region.get("approximate_size").asLong()).isEqualTo(42);

        assertThat(ctl("region", Long.toString(bootstrap.getId())).json().get("id").asLong()).isEqualTo(bootstrap.getId());
        assertThat(ctl("region", "t1_r5").json().get("id").asLong()).isEqualTo(bootstrap.getId());
        assertThat(ctl("region", "--hex", "7480").json().get("id").asLong()).isEqualTo(bootstrap.getId());
    }

    @Test
    void errorsAreOneLineWithANonZeroExit() {
        CtlRun unknown = ctl("frobnicate");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err().strip()).startsWith("error: unknown command 'frobnicate'").doesNotContain("\n");

        CtlRun missing = ctl("region", "987654");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err().strip()).isEqualTo("error: no region with id 987654");

        CtlRun badHex = ctl("region", "--hex", "zz");
        assertThat(badHex.exitCode()).isEqualTo(2);

        StringWriter err = new StringWriter();
        CommandLine commandLine = Main.commandLine();
        commandLine.setErr(new PrintWriter(err, true));
        int code = commandLine.execute("ctl", "--pd", "127.0.0.1:" + LocalPlacementCluster.freePort(), "--timeout", "1s", "stores");
        assertThat(code).isEqualTo(1);
        assertThat(err.toString().strip()).startsWith("error: placement driver did not answer GetAllStores")
                .contains("cannot reach").doesNotContain("\n");
    }
}
