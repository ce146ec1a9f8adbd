package io.duetdb.testing.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.protobuf.ByteString;

import io.duetdb.client.kv.RegionRequestSender;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.region.RegionCache;
import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.client.txn.TxnClientConfig;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.proto.kv.ReplicaRead;
import io.duetdb.proto.kv.TxnGetRequest;
import io.duetdb.proto.kv.TxnGetResponse;
import io.duetdb.testing.CtlRun;
import io.duetdb.testing.LocalCluster;

/** MVCC garbage collection follows placement's safe point and never removes what a live snapshot reads. */
class ItGarbageCollection {
    @TempDir
    Path root;

    @Test
    void oldVersionsGoOnlyOnceNoSnapshotCanReadThem() throws Exception {
        try (LocalCluster cluster = new LocalCluster(root, 1, config -> config.setGcLifeTime(Duration.ofSeconds(1))
                .setScheduleInterval(Duration.ofMillis(300)), config -> config.setGcRunInterval(Duration.ofMillis(300))).start(3);
                PlacementClient placement = cluster.newPlacementClient();
                TxnClient client = new TxnClient(placement, TxnClientConfig.DEFAULT.withSafePointInterval(Duration.ofMillis(100)));
                RegionRequestSender raw = new RegionRequestSender(new RegionCache(placement), Duration.ofSeconds(10),
                        ReplicaRead.LEADER)) {
            byte[] key = "gc-k".getBytes(StandardCharsets.UTF_8);
            List<Long> commits = new ArrayList<>();
            for (int i = 1; i <= 5; i++) {
                commits.add(write(client, key, "v" + i));
            }
            Transaction longReader = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
            assertThat(text(longReader.get(key).orElseThrow())).isEqualTo("v5");
            Thread.sleep(500);
            long lastCommit = 0;
            for (int i = 6; i <= 8; i++) {
                lastCommit = write(client, key, "v" + i);
            }
            LocalCluster.await("the safe point to reach the long reader", Duration.ofSeconds(30),
                    () -> placement.getGcSafePoint().getSafePoint() >= commits.get(4));
            Thread.sleep(3_000);
            assertThat(placement.getGcSafePoint().getSafePoint()).as("held back by the live reader")
                    .isLessThanOrEqualTo(longReader.startTs());
            assertThat(text(longReader.get(key).orElseThrow())).isEqualTo("v5");
            LocalCluster.await("old versions collected", Duration.ofSeconds(30), () -> gcKeys(cluster) > 0);
            TxnGetResponse tooOld = raw.call(key, true, (context, stub) -> stub.kvGet(TxnGetRequest.newBuilder()
                    .setContext(context).setKey(ByteString.copyFrom(key)).setVersion(commits.get(1)).build()),
                    TxnGetResponse::getRegionError, TxnGetResponse::hasRegionError, r -> "");
            assertThat(tooOld.getError().getGcTooEarly()).contains("GC safe point");

            CtlRun gc = CtlRun.run(cluster.placement().clientAddresses().get(0).toString(), "gc");
            assertThat(gc.exitCode()).isZero();
            assertThat(gc.json().get("service_safe_points")).hasSize(1);
            assertThat(gc.json().get("gc_life_time").asText()).isEqualTo("1s");

            longReader.rollback();
            LocalCluster.await("the safe point to move past the reader", Duration.ofSeconds(30),
                    () -> placement.getGcSafePoint().getSafePoint() > longReader.startTs());
            try (Transaction reader = client.begin()) {
                assertThat(text(reader.get(key).orElseThrow())).isEqualTo("v8");
            }

            // Once a round has passed every write, regions without new writes are not scanned again.
            long written = lastCommit;
            LocalCluster.await("the safe point to pass the last write", Duration.ofSeconds(30),
                    () -> placement.getGcSafePoint().getSafePoint() > written);
            Thread.sleep(1_500);
            double scans = storeMetric(cluster, "duet_store_gc_region_scans_total");
            assertThat(scans).isPositive();
            Thread.sleep(2_000);
            assertThat(storeMetric(cluster, "duet_store_gc_region_scans_total")).as("scans of unchanged regions")
                    .isEqualTo(scans);
            // A new write makes its key's older version garbage once the point passes it: the next rounds check the
            // keys written since instead of scanning the region again.
            double collectedBefore = gcKeys(cluster);
            long ninth = write(client, key, "v9");
            LocalCluster.await("the safe point to pass the new write", Duration.ofSeconds(30),
                    () -> placement.getGcSafePoint().getSafePoint() > ninth);
            LocalCluster.await("v8 collected by checking the written key", Duration.ofSeconds(30),
                    () -> gcKeys(cluster) > collectedBefore);
            assertThat(storeMetric(cluster, "duet_store_gc_key_rounds_total")).isPositive();
            assertThat(storeMetric(cluster, "duet_store_gc_region_scans_total")).as("regions scanned").isEqualTo(scans);
            try (Transaction reader = client.begin()) {
                assertThat(text(reader.get(key).orElseThrow())).isEqualTo("v9");
            }
        }
    }

    private static long write(TxnClient client, byte[] key, String value) {
        try (Transaction txn = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            txn.put(key, value.getBytes(StandardCharsets.UTF_8));
            txn.commit();
            return txn.commitTs();
        }
    }

    private static String text(byte[] value) {
        return new String(value, StandardCharsets.UTF_8);
    }

    /** Keys garbage-collected so far, summed over the stores' metrics. */
    private static double gcKeys(LocalCluster cluster) {
        return storeMetric(cluster, "duet_store_gc_keys_total");
    }

    /** A counter summed over the stores' metrics. */
    private static double storeMetric(LocalCluster cluster, String name) {
        double total = 0;
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < cluster.storeCount(); i++) {
            int index = i;
            String address = cluster.store(index).orElseThrow().statusAddress().toString();
            try {
                String metrics = http.send(HttpRequest.newBuilder(URI.create("http://" + address + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                for (String line : metrics.split("\n")) {
                    if (line.startsWith(name + " ")) {
                        total += Double.parseDouble(line.substring(line.indexOf(' ') + 1).trim());
                    }
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        return total;
    }
}
