package io.duetdb.testing.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.protobuf.ByteString;

import io.duetdb.client.kv.RawKvClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.config.DataSize;
import io.duetdb.common.error.DuetException;
import io.duetdb.proto.kv.Context;
import io.duetdb.proto.kv.KeyValue;
import io.duetdb.proto.kv.RawGetRequest;
import io.duetdb.proto.kv.RawGetResponse;
import io.duetdb.proto.kv.RawPutRequest;
import io.duetdb.proto.kv.RawPutResponse;
import io.duetdb.proto.kv.RawScanRequest;
import io.duetdb.proto.kv.RegionError;
import io.duetdb.proto.kv.ReplicaRead;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.RegionEpoch;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.testing.KeyWriters;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.StoreAdminCalls;
import io.duetdb.testing.history.RegisterHistory;

/** Storage nodes in one JVM with real Ratis, RocksDB and gRPC: replication, splits, failures, errors. */
class ItStoreCluster {
    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path root;
    private LocalCluster cluster;
    private PlacementClient placement;
    private RawKvClient kv;
    private StoreAdminCalls admin;

    @AfterEach
    void stop() {
        if (admin != null) {
            admin.close();
        }
        if (kv != null) {
            kv.close();
        }
        if (placement != null) {
            placement.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private void start(int stores, java.util.function.Consumer<io.duetdb.store.StoreConfig> customise) {
        cluster = new LocalCluster(root, 1, config -> { }, customise).start(stores);
        placement = cluster.newPlacementClient();
        kv = cluster.newRawKvClient(placement);
        admin = new StoreAdminCalls(placement);
    }

    private void awaitVoters(byte[] key, int voters) {
        LocalCluster.await(voters + " voters", WAIT, () -> placement.getRegion(key).map(info ->
                info.getRegion().getPeersList().stream().filter(p -> p.getRole() == PeerRole.VOTER).count() == voters
                        && info.getRegion().getPeersCount() == voters).orElse(false));
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void registerHistoriesStayLinearizableAcrossLeaderTransfers() throws Exception {
        start(3, config -> { });
        kv.put(bytes("reg-0"), bytes("init"));
        awaitVoters(bytes("reg-0"), 3);
        List<String> keys = List.of("reg-0", "reg-1", "reg-2");
        Map<String, RegisterHistory> histories = new HashMap<>();
        keys.forEach(key -> histories.put(key, new RegisterHistory()));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger counter = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(6);
        List<Future<?>> futures = new ArrayList<>();
        for (int c = 0; c < 6; c++) {
            int client = c;
            futures.add(clients.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (!stop.get()) {
                    String key = keys.get(random.nextInt(keys.size()));
                    RegisterHistory history = histories.get(key);
                    long start = System.nanoTime();
                    if (random.nextBoolean()) {
                        String value = client + "-" + counter.incrementAndGet();
                        try {
                            kv.put(bytes(key), bytes(value));
                            history.add(new RegisterHistory.Operation(client, RegisterHistory.Kind.WRITE, value, start,
                                    System.nanoTime(), true));
                        } catch (RuntimeException e) {
                            history.add(new RegisterHistory.Operation(client, RegisterHistory.Kind.WRITE, value, start,
                                    Long.MAX_VALUE, false));
                        }
                    } else {
                        try {
                            Optional<byte[]> value = kv.get(bytes(key));
                            history.add(new RegisterHistory.Operation(client, RegisterHistory.Kind.READ,
                                    value.map(v -> new String(v, StandardCharsets.UTF_8)).orElse(null), start,
                                    System.nanoTime(), true));
                        } catch (RuntimeException e) {
                            // A failed read tells nothing.
                        }
                    }
                }
                return null;
            }));
        }
        List<Long> storeIds = placement.getAllStores().stream().map(s -> s.getStore().getId()).toList();
        int transfers = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            Thread.sleep(1_000);
            long target = storeIds.get(ThreadLocalRandom.current().nextInt(storeIds.size()));
            if (admin.transferLeader(bytes("reg-0"), target)) {
                transfers++;
            }
        }
        stop.set(true);
        for (Future<?> future : futures) {
            future.get(60, TimeUnit.SECONDS);
        }
        clients.shutdown();
        assertThat(transfers).as("leader transfers that happened").isGreaterThanOrEqualTo(3);
        assertThat(histories.get("reg-0").isLinearizable("init")).as("reg-0").isTrue();
        assertThat(histories.get("reg-1").isLinearizable(null)).as("reg-1").isTrue();
        assertThat(histories.get("reg-2").isLinearizable(null)).as("reg-2").isTrue();
        int operations = histories.values().stream().mapToInt(h -> h.operations().size()).sum();
        assertThat(operations).isGreaterThan(200);
    }

    @Test
    void splitsUnderConcurrentWritesLoseAndDuplicateNoKey() throws Exception {
        start(3, config -> { });
        kv.put(bytes("w-seed"), bytes("x"));
        awaitVoters(bytes("w-seed"), 3);
        KeyWriters writers = new KeyWriters(kv, List.of("w-0", "w-1", "w-2", "w-3"), key -> "value-" + key);
        List<String> splitKeys = List.of("w-2", "w-1", "w-3", "w-0-000500", "w-2-000500");
        for (String splitKey : splitKeys) {
            Thread.sleep(700);
            admin.split(bytes(splitKey));
        }
        Thread.sleep(700);
        writers.stop();
        Set<String> acknowledged = writers.acknowledged();
        Set<String> uncertain = writers.uncertain();
        LocalCluster.await("placement to hear of every new region", WAIT,
                () -> placement.scanRegions(new byte[0], new byte[0], 0).size() >= splitKeys.size() + 1);

        List<KeyValue> all = kv.scan(bytes("w-"), bytes("w-z"), 1_000_000, false);
        List<String> scanned = all.stream().map(pair -> pair.getKey().toStringUtf8()).toList();
        assertThat(new HashSet<>(scanned)).as("no key scanned twice").hasSize(scanned.size());
        assertThat(scanned).as("every acknowledged write is there").containsAll(acknowledged);
        Set<String> unexpected = new HashSet<>(scanned);
        unexpected.removeAll(acknowledged);
        unexpected.removeAll(uncertain);
        unexpected.remove("w-seed");
        assertThat(unexpected).as("keys nobody wrote").isEmpty();
        for (KeyValue pair : all) {
            if (!pair.getKey().toStringUtf8().equals("w-seed")) {
                assertThat(pair.getValue().toStringUtf8()).isEqualTo("value-" + pair.getKey().toStringUtf8());
            }
        }
        assertThat(acknowledged.size()).isGreaterThan(500);
        List<KeyValue> backwards = kv.scan(bytes("w-"), bytes("w-z"), 1_000_000, true);
        assertThat(backwards).hasSize(all.size());
        assertThat(backwards.get(0)).isEqualTo(all.get(all.size() - 1));
    }

    @Test
    void aNewReplicaInstallsASnapshotAndServesFollowerReadsOfTheLatestWrite() {
        start(2, config -> { });
        for (int i = 0; i < 500; i++) {
            kv.put(bytes(String.format("s-%04d", i)), bytes("v" + i));
        }
        long third = cluster.store(cluster.addStore()).orElseThrow().storeId();
        awaitVoters(bytes("s-0000"), 3);
        kv.put(bytes("s-latest"), bytes("fresh"));
        RegionInfo region = admin.regionWithLeader(bytes("s-latest"));
        Peer onThird = region.getRegion().getPeersList().stream().filter(p -> p.getStoreId() == third).findFirst().orElseThrow();
        Context context = Context.newBuilder().setRegionId(region.getRegion().getId())
                .setRegionEpoch(region.getRegion().getEpoch()).setPeer(onThird).setReplicaRead(ReplicaRead.FOLLOWER).build();
        if (region.getLeader().getStoreId() == third) {
            admin.transferLeader(bytes("s-latest"), region.getRegion().getPeersList().stream()
                    .filter(p -> p.getStoreId() != third).findFirst().orElseThrow().getStoreId());
        }
        RawGetResponse latest = admin.kv(third).rawGet(RawGetRequest.newBuilder().setContext(context)
                .setKey(ByteString.copyFromUtf8("s-latest")).build());
        assertThat(latest.hasRegionError()).as(latest.getRegionError().getMessage()).isFalse();
        assertThat(latest.getValue().toStringUtf8()).isEqualTo("fresh");
        RawGetResponse old = admin.kv(third).rawGet(RawGetRequest.newBuilder().setContext(context)
                .setKey(ByteString.copyFromUtf8("s-0123")).build());
        assertThat(old.getValue().toStringUtf8()).isEqualTo("v123");
        // The same read as a leader read on a follower is refused with the leader's address.
        RawGetResponse asLeader = admin.kv(third).rawGet(RawGetRequest.newBuilder()
                .setContext(context.toBuilder().setReplicaRead(ReplicaRead.LEADER)).setKey(ByteString.copyFromUtf8("s-latest")).build());
        if (admin.regionWithLeader(bytes("s-latest")).getLeader().getStoreId() != third) {
            assertThat(asLeader.getRegionError().hasNotLeader()).isTrue();
            assertThat(asLeader.getRegionError().getNotLeader().hasLeader()).isTrue();
        }
    }

    @Test
    void restartingEveryStoreKeepsEveryAcknowledgedWrite() {
        start(3, config -> { });
        kv.put(bytes("r-seed"), bytes("x"));
        awaitVoters(bytes("r-seed"), 3);
        Map<byte[], byte[]> batch = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            batch.put(bytes(String.format("r-%04d", i)), bytes("value-" + i));
        }
        kv.batchPut(batch);
        admin.split(bytes("r-0150"));
        kv.put(bytes("r-last"), bytes("last"));
        for (int i = 0; i < cluster.storeCount(); i++) {
            cluster.stopStore(i);
        }
        for (int i = 0; i < cluster.storeCount(); i++) {
            cluster.startStore(i);
        }
        assertThat(kv.get(bytes("r-last"))).hasValue(bytes("last"));
        List<KeyValue> scanned = kv.scan(bytes("r-0"), bytes("r-9"), 10_000, false);
        assertThat(scanned).hasSize(300);
        LocalCluster.await("both regions reported", WAIT, () -> placement.scanRegions(new byte[0], new byte[0], 0).size() == 2);
    }

    @Test
    void aDownStoreHasItsReplicasRecreatedAndDropsThemWhenItReturns() {
        start(4, config -> { });
        kv.put(bytes("d-1"), bytes("one"));
        awaitVoters(bytes("d-1"), 3);
        RegionInfo region = admin.regionWithLeader(bytes("d-1"));
        long leaderStore = region.getLeader().getStoreId();
        long victim = region.getRegion().getPeersList().stream().map(Peer::getStoreId)
                .filter(id -> id != leaderStore).findFirst().orElseThrow();
        int victimIndex = -1;
        for (int i = 0; i < cluster.storeCount(); i++) {
            if (cluster.store(i).map(s -> s.storeId() == victim).orElse(false)) {
                victimIndex = i;
            }
        }
        cluster.stopStore(victimIndex);
        kv.put(bytes("d-2"), bytes("two"));
        LocalCluster.await("the replica on the down store to be replaced", WAIT, () -> placement.getRegion(bytes("d-1"))
                .map(info -> info.getRegion().getPeersList().stream().noneMatch(p -> p.getStoreId() == victim)
                        && info.getRegion().getPeersList().stream().filter(p -> p.getRole() == PeerRole.VOTER).count() == 3)
                .orElse(false));
        assertThat(kv.get(bytes("d-1"))).hasValue(bytes("one"));
        assertThat(kv.get(bytes("d-2"))).hasValue(bytes("two"));

        // The store comes back: it finds it no longer holds a replica and removes its copy.
        cluster.startStore(victimIndex);
        int index = victimIndex;
        LocalCluster.await("the returning store to drop its stale replica", WAIT, () -> cluster.store(index)
                .map(server -> server.status().get("regions").equals(0)).orElse(false));
    }

    @Test
    void badRequestsGetTypedErrors() {
        start(1, config -> config.setReserveSpace(DataSize.ofMebibytes(64)));
        kv.put(bytes("e-key"), bytes("v"));
        RegionInfo region = admin.regionWithLeader(bytes("e-key"));
        long store = region.getLeader().getStoreId();
        Context context = Context.newBuilder().setRegionId(region.getRegion().getId())
                .setRegionEpoch(region.getRegion().getEpoch()).setPeer(region.getLeader()).build();

        RegionError unknown = admin.kv(store).rawGet(RawGetRequest.newBuilder()
                .setContext(context.toBuilder().setRegionId(987654)).setKey(ByteString.copyFromUtf8("e-key")).build()).getRegionError();
        assertThat(unknown.hasRegionNotFound()).isTrue();

        RegionError stale = admin.kv(store).rawGet(RawGetRequest.newBuilder()
                .setContext(context.toBuilder().setRegionEpoch(RegionEpoch.newBuilder().setVersion(99)))
                .setKey(ByteString.copyFromUtf8("e-key")).build()).getRegionError();
        assertThat(stale.hasEpochNotMatch()).isTrue();
        assertThat(stale.getEpochNotMatch().getCurrentRegionsList()).extracting(Region::getId).contains(region.getRegion().getId());

        List<Region> halves = admin.split(bytes("m"));
        Region left = halves.stream().filter(r -> r.getId() == region.getRegion().getId()).findFirst().orElseThrow();
        RegionError outside = admin.kv(store).rawPut(RawPutRequest.newBuilder()
                .setContext(context.toBuilder().setRegionEpoch(left.getEpoch())).setKey(ByteString.copyFromUtf8("z"))
                .setValue(ByteString.copyFromUtf8("v")).build()).getRegionError();
        assertThat(outside.hasKeyNotInRegion()).isTrue();

        assertThat(admin.kv(store).rawScan(RawScanRequest.newBuilder().setContext(context.toBuilder().setRegionEpoch(left.getEpoch()))
                .setStartKey(ByteString.copyFromUtf8("b")).setEndKey(ByteString.copyFromUtf8("a")).setLimit(10).build()).getError())
                .contains("reversed");
        RawPutResponse tooLarge = admin.kv(store).rawPut(RawPutRequest.newBuilder()
                .setContext(context.toBuilder().setRegionEpoch(left.getEpoch()))
                .setKey(ByteString.copyFrom(new byte[9000])).setValue(ByteString.copyFromUtf8("v")).build());
        assertThat(tooLarge.getError()).contains("exceeds the limit");
        assertThatThrownBy(() -> kv.put(new byte[0], bytes("v"))).isInstanceOf(DuetException.class)
                .hasMessageContaining("must not be empty");
        assertThatThrownBy(() -> kv.put(bytes("big"), new byte[9 << 20])).isInstanceOf(DuetException.class)
                .hasMessageContaining("exceeds the limit");
        assertThatThrownBy(() -> kv.scan(bytes("b"), bytes("a"), 10, false)).isInstanceOf(DuetException.class)
                .hasMessageContaining("reversed");
        assertThat(kv.get(bytes("e-key"))).hasValue(bytes("v"));
    }

    @Test
    void aFullDiskStopsWritesWithAClearErrorAndKeepsReads() {
        start(1, config -> config.setReserveSpace(DataSize.parse("1000TiB")));
        assertThatThrownBy(() -> kv.put(bytes("f"), bytes("v"))).isInstanceOf(DuetException.class)
                .hasMessageContaining("disk full");
        assertThat(kv.get(bytes("f"))).isEmpty();
    }

    @Test
    void mergesUnderConcurrentWritesKeepEveryKeyAndPlacementMergesSmallRegions() throws Exception {
        cluster = new LocalCluster(root, 1, config -> config.setSplitMergeInterval(Duration.ofSeconds(3)), config -> { })
                .start(3);
        placement = cluster.newPlacementClient();
        kv = cluster.newRawKvClient(placement);
        admin = new StoreAdminCalls(placement);
        kv.put(bytes("g-seed"), bytes("x"));
        awaitVoters(bytes("g-seed"), 3);
        admin.split(bytes("g-5"));
        KeyWriters writers = new KeyWriters(kv, List.of("g-0", "g-7"), key -> key);
        Thread.sleep(1_000);
        var merged = admin.merge(bytes("g-0"), bytes("g-9"));
        assertThat(merged.getError()).isEmpty();
        assertThat(merged.hasRegionError()).isFalse();
        assertThat(merged.getRegion().getStartKey().isEmpty() || merged.getRegion().getEndKey().isEmpty()).isTrue();
        Thread.sleep(1_000);
        writers.stop();
        Set<String> acknowledged = writers.acknowledged();
        List<String> present = kv.scan(bytes("g-"), bytes("g-z"), 1_000_000, false).stream()
                .map(pair -> pair.getKey().toStringUtf8()).toList();
        assertThat(new HashSet<>(present)).hasSize(present.size());
        assertThat(present).containsAll(acknowledged);
        assertThat(acknowledged.size()).isGreaterThan(100);
        LocalCluster.await("placement to see one region", WAIT,
                () -> placement.scanRegions(new byte[0], new byte[0], 0).size() == 1);

        // A small split-off region is merged back by placement once its range has been stable for a while.
        admin.split(bytes("g-3"));
        LocalCluster.await("placement to merge the small regions back", WAIT,
                () -> placement.scanRegions(new byte[0], new byte[0], 0).size() == 1);
        assertThat(kv.scan(bytes("g-"), bytes("g-z"), 1_000_000, false)).hasSize(present.size());
    }

    private static void flipBytesIn(Path file) throws java.io.IOException {
        byte[] content = java.nio.file.Files.readAllBytes(file);
        for (int i = content.length / 3; i < Math.min(content.length, content.length / 3 + 64); i++) {
            content[i] = (byte) ~content[i];
        }
        java.nio.file.Files.write(file, content);
    }

    @Test
    void corruptedFilesAreDetectedAtStartAndReportedClearly() throws Exception {
        start(1, config -> { });
        for (int i = 0; i < 200; i++) {
            kv.put(bytes("c-" + i), bytes("value-" + i));
        }
        Path dataDir = cluster.storeConfig(0).dataDir();
        cluster.stopStore(0);
        Path manifest;
        try (var files = java.nio.file.Files.list(dataDir.resolve("db"))) {
            manifest = files.filter(file -> file.getFileName().toString().startsWith("MANIFEST-")).findFirst().orElseThrow();
        }
        byte[] original = java.nio.file.Files.readAllBytes(manifest);
        flipBytesIn(manifest);
        assertThatThrownBy(() -> cluster.startStore(0)).isInstanceOf(DuetException.class)
                .hasMessageContaining("cannot be opened").hasMessageContaining("Corruption");
        java.nio.file.Files.write(manifest, original);

        Path segment;
        try (var files = java.nio.file.Files.walk(dataDir.resolve("raft"))) {
            segment = files.filter(file -> file.getFileName().toString().startsWith("log_"))
                    .max(java.util.Comparator.comparingLong(file -> file.toFile().length())).orElseThrow();
        }
        flipBytesIn(segment);
        assertThatThrownBy(() -> cluster.startStore(0)).isInstanceOf(DuetException.class)
                .hasMessageContaining("cannot be recovered")
                .hasMessageContaining("ChecksumException Log entry corrupted");
    }
}
