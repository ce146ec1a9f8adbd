package io.duetdb.testing.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.proto.kv.CommitRequest;
import io.duetdb.proto.kv.CommitResponse;
import io.duetdb.proto.kv.Mutation;
import io.duetdb.proto.kv.Op;
import io.duetdb.proto.kv.PrewriteRequest;
import io.duetdb.proto.kv.PrewriteResponse;
import io.duetdb.proto.kv.ReplicaRead;
import io.duetdb.proto.kv.TxnScanRequest;
import io.duetdb.proto.kv.TxnScanResponse;
import io.duetdb.testing.LocalCluster;

/** Percolator transactions through the client, against three in-process stores. */
class ItTransactions {
    @TempDir
    static Path root;
    static LocalCluster cluster;
    static PlacementClient placement;
    static TxnClient client;

    @BeforeAll
    static void start() {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
        placement = cluster.newPlacementClient();
        client = new TxnClient(placement, TxnClientConfig.DEFAULT.withLockTtl(Duration.ofSeconds(2))
                .withLockWaitTimeout(Duration.ofSeconds(5)));
    }

    @AfterAll
    static void stop() {
        client.close();
        placement.close();
        cluster.close();
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String text(byte[] value) {
        return new String(value, StandardCharsets.UTF_8);
    }

    @Test
    void commitsAreVisibleToLaterSnapshotsOnly() {
        Transaction before = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
        try (Transaction writer = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            writer.put(bytes("si-a"), bytes("1"));
            writer.put(bytes("si-b"), bytes("x".repeat(1000)));
            assertThat(writer.get(bytes("si-a")).map(ItTransactions::text)).hasValue("1");
            writer.commit();
            assertThat(writer.commitTs()).isGreaterThan(writer.startTs());
        }
        assertThat(before.get(bytes("si-a"))).isEmpty();
        before.rollback();
        try (Transaction reader = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            assertThat(reader.get(bytes("si-a")).map(ItTransactions::text)).hasValue("1");
            assertThat(reader.get(bytes("si-b")).map(ItTransactions::text)).hasValue("x".repeat(1000));
            Map<ByteString, byte[]> both = reader.batchGet(List.of(bytes("si-a"), bytes("si-b"), bytes("si-c")));
            assertThat(both).hasSize(2);
            reader.delete(bytes("si-a"));
            reader.put(bytes("si-0"), bytes("own"));
            List<Map.Entry<ByteString, byte[]>> scanned = reader.scan(bytes("si-"), bytes("si-z"), 10);
            assertThat(scanned).extracting(entry -> entry.getKey().toStringUtf8()).containsExactly("si-0", "si-b");
            reader.commit();
        }
        try (Transaction reader = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ)) {
            assertThat(reader.get(bytes("si-a"))).isEmpty();
            assertThat(reader.get(bytes("si-0")).map(ItTransactions::text)).hasValue("own");
        }
    }

    @Test
    void optimisticWritersConflictAtCommit() {
        Transaction first = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
        Transaction second = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
        first.put(bytes("oc-k"), bytes("first"));
        second.put(bytes("oc-k"), bytes("second"));
        first.commit();
        assertThatThrownBy(second::commit).isInstanceOfSatisfying(DuetException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.WRITE_CONFLICT));
        try (Transaction reader = client.begin()) {
            assertThat(reader.get(bytes("oc-k")).map(ItTransactions::text)).hasValue("first");
        }
    }

    @Test
    void pessimisticWritersWaitForEachOther() throws Exception {
        Transaction first = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ);
        first.put(bytes("pw-k"), bytes("first"));
        CompletableFuture<Long> second = CompletableFuture.supplyAsync(() -> {
            try (Transaction txn = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ)) {
                long started = System.nanoTime();
                byte[] seen = txn.getForUpdate(bytes("pw-k")).orElseThrow();
                txn.put(bytes("pw-k"), bytes(text(seen) + "+second"));
                txn.commit();
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            }
        });
        Thread.sleep(500);
        assertThat(second).isNotDone();
        first.commit();
        second.get(10, TimeUnit.SECONDS);
        try (Transaction reader = client.begin()) {
            assertThat(reader.get(bytes("pw-k")).map(ItTransactions::text)).hasValue("first+second");
        }
    }

    @Test
    void lockWaitTimesOutWith1205() {
        try (TxnClient impatient = new TxnClient(placement, TxnClientConfig.DEFAULT.withLockWaitTimeout(Duration.ofMillis(300)));
                Transaction holder = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ);
                Transaction waiter = impatient.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ)) {
            holder.put(bytes("lw-k"), bytes("held"));
            assertThatThrownBy(() -> waiter.put(bytes("lw-k"), bytes("waiting")))
                    .isInstanceOfSatisfying(DuetException.class, e -> assertThat(e.code().errorNumber()).isEqualTo(1205));
            // The statement failed, not the transaction: it goes on with other keys.
            waiter.put(bytes("lw-other"), bytes("fine"));
            waiter.commit();
            holder.commit();
        }
    }

    @Test
    void deadlockIsDetectedWith1213() throws Exception {
        Transaction one = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ);
        Transaction two = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ);
        one.put(bytes("dl-a"), bytes("1"));
        two.put(bytes("dl-b"), bytes("2"));
        CompletableFuture<Integer> oneWaits = CompletableFuture.supplyAsync(() -> lockOutcome(one, "dl-b", "1"));
        Thread.sleep(300);
        int twoOutcome = lockOutcome(two, "dl-a", "2");
        int oneOutcome = oneWaits.get(20, TimeUnit.SECONDS);
        // Whichever wait closed the cycle is refused with 1213 and rolled back; the other goes on.
        assertThat(List.of(oneOutcome, twoOutcome)).containsExactlyInAnyOrder(0, 1213);
        Transaction survivor = oneOutcome == 0 ? one : two;
        survivor.commit();
        try (Transaction reader = client.begin()) {
            String expected = oneOutcome == 0 ? "1" : "2";
            assertThat(reader.get(bytes("dl-a")).map(ItTransactions::text)).hasValue(expected);
            assertThat(reader.get(bytes("dl-b")).map(ItTransactions::text)).hasValue(expected);
        }
    }

    /** 0 when the write locked its key, else the MySQL error number it failed with. */
    private static int lockOutcome(Transaction txn, String key, String value) {
        try {
            txn.put(bytes(key), bytes(value));
            return 0;
        } catch (DuetException e) {
            return e.code().errorNumber();
        }
    }

    @Test
    void readCommittedSeesLaterCommitsRepeatableReadDoesNot() {
        try (Transaction init = client.begin()) {
            init.put(bytes("iso-k"), bytes("old"));
            init.commit();
        }
        Transaction repeatable = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ);
        Transaction committed = client.begin(TxnMode.PESSIMISTIC, Isolation.READ_COMMITTED);
        assertThat(text(repeatable.get(bytes("iso-k")).orElseThrow())).isEqualTo("old");
        assertThat(text(committed.get(bytes("iso-k")).orElseThrow())).isEqualTo("old");
        try (Transaction writer = client.begin()) {
            writer.put(bytes("iso-k"), bytes("new"));
            writer.commit();
        }
        assertThat(text(repeatable.get(bytes("iso-k")).orElseThrow())).isEqualTo("old");
        assertThat(text(committed.get(bytes("iso-k")).orElseThrow())).isEqualTo("new");
        // A locking read sees the latest committed value in either mode (MySQL's "current read").
        assertThat(text(repeatable.getForUpdate(bytes("iso-k")).orElseThrow())).isEqualTo("new");
        repeatable.rollback();
        committed.rollback();
    }

    @Test
    void transactionsOverTheSizeLimitsFailClearly() {
        try (TxnClient small = new TxnClient(placement, TxnClientConfig.DEFAULT.withLimits(10, 1_000));
                Transaction txn = small.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            for (int i = 0; i < 10; i++) {
                txn.put(bytes("big-" + i), bytes("v"));
            }
            assertThatThrownBy(() -> txn.put(bytes("big-10"), bytes("v"))).isInstanceOfSatisfying(DuetException.class,
                    e -> assertThat(e.code().errorNumber()).isEqualTo(8004));
        }
        try (Transaction txn = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            assertThatThrownBy(() -> txn.put(new byte[0], bytes("v"))).isInstanceOf(DuetException.class)
                    .hasMessageContaining("empty");
            assertThatThrownBy(() -> txn.put(bytes("huge"), new byte[7 << 20])).isInstanceOfSatisfying(DuetException.class,
                    e -> assertThat(e.code().errorNumber()).isEqualTo(8004));
        }
    }

    @Test
    void singleRegionTransactionsCommitInOnePhase() {
        try (Transaction txn = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            txn.put(bytes("op-a"), bytes("1"));
            txn.put(bytes("op-b"), bytes("2"));
            txn.commit();
            assertThat(txn.commitTs()).isGreaterThan(txn.startTs());
            // Read right at the commit timestamp: the writes are there, no lock left behind.
            try (Transaction reader = client.begin()) {
                assertThat(reader.startTs()).isGreaterThan(txn.commitTs());
                assertThat(reader.batchGet(List.of(bytes("op-a"), bytes("op-b")))).hasSize(2);
            }
        }
    }

    @Test
    void pessimisticLocksStayInTheLeadersMemory() throws Exception {
        long proposalsBefore = cluster.raftProposals();
        try (Transaction txn = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ)) {
            for (int i = 0; i < 40; i++) {
                txn.getForUpdate(bytes("mem-" + i));
            }
            long lockProposals = cluster.raftProposals() - proposalsBefore;
            // Forty lock requests; a handful of proposals at most come from elsewhere (heartbeats, GC).
            assertThat(lockProposals).as("Raft entries proposed while locking").isLessThan(20);
            // Another writer still waits for those locks.
            CompletableFuture<Void> other = CompletableFuture.runAsync(() -> {
                try (Transaction second = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ)) {
                    second.put(bytes("mem-7"), bytes("second"));
                    second.commit();
                }
            });
            Thread.sleep(500);
            assertThat(other).isNotDone();
            for (int i = 0; i < 40; i++) {
                txn.put(bytes("mem-" + i), bytes("first"));
            }
            txn.commit();
            other.get(10, TimeUnit.SECONDS);
        }
        try (Transaction reader = client.begin()) {
            assertThat(reader.get(bytes("mem-0")).map(ItTransactions::text)).hasValue("first");
            assertThat(reader.get(bytes("mem-7")).map(ItTransactions::text)).hasValue("second");
        }
    }

    @Test
    void aPlannedLeaderTransferKeepsInMemoryLocks() throws Exception {
        // The default lock TTL (20 s): a transfer can take longer than this class's short test TTL.
        try (io.duetdb.testing.StoreAdminCalls admin = new io.duetdb.testing.StoreAdminCalls(placement);
                TxnClient patient = new TxnClient(placement, TxnClientConfig.DEFAULT.withLockWaitTimeout(Duration.ofSeconds(10)));
                Transaction txn = patient.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ)) {
            txn.put(bytes("kept-a"), bytes("first"));
            awaitThreeVoters(bytes("kept-a"));
            assertThat(admin.transferLeader(bytes("kept-a"), otherStore(bytes("kept-a")))).isTrue();
            // The old leader wrote the lock through the log before handing over: another writer still waits for it.
            CompletableFuture<Void> second = CompletableFuture.runAsync(() -> {
                try (Transaction other = patient.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ)) {
                    byte[] seen = other.getForUpdate(bytes("kept-a")).orElseThrow();
                    other.put(bytes("kept-a"), bytes(text(seen) + "+second"));
                    other.commit();
                }
            });
            Thread.sleep(500);
            assertThat(second).isNotDone();
            txn.commit();
            second.get(10, TimeUnit.SECONDS);
        }
        try (Transaction reader = client.begin()) {
            assertThat(reader.get(bytes("kept-a")).map(ItTransactions::text)).hasValue("first+second");
        }
    }

    @Test
    void aLeaderCrashDropsInMemoryLocksAndTheirTransactionFailsWithoutWriting() throws Exception {
        try (Transaction txn = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ)) {
            txn.put(bytes("lost-a"), bytes("first"));
            awaitThreeVoters(bytes("lost-a"));
            long leader = placement.getRegion(bytes("lost-a")).orElseThrow().getLeader().getStoreId();
            int leaderIndex = -1;
            for (int i = 0; i < cluster.storeCount(); i++) {
                int index = i;
                if (cluster.store(i).map(store -> store.storeId() == leader).orElse(false)) {
                    leaderIndex = index;
                }
            }
            assertThat(leaderIndex).isNotNegative();
            cluster.stopStore(leaderIndex);
            try {
                // The lock died with the leader: another writer gets the key from the new leader at once.
                try (Transaction second = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ)) {
                    second.put(bytes("lost-a"), bytes("second"));
                    second.commit();
                }
                assertThatThrownBy(txn::commit).isInstanceOfSatisfying(DuetException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.TRANSACTION_RETRYABLE));
            } finally {
                cluster.startStore(leaderIndex);
            }
        }
        try (Transaction reader = client.begin()) {
            assertThat(reader.get(bytes("lost-a")).map(ItTransactions::text)).hasValue("second");
        }
    }

    /** A fresh cluster's region starts with one replica: waits for three voters and a leader placement knows. */
    private static void awaitThreeVoters(byte[] key) {
        LocalCluster.await("three voters and a known leader", Duration.ofSeconds(60), () -> {
            var info = placement.getRegion(key).orElseThrow();
            return info.getLeader().getStoreId() != 0 && info.getRegion().getPeersList().stream()
                    .filter(peer -> peer.getRole() == io.duetdb.proto.meta.PeerRole.VOTER).count() == 3;
        });
    }

    private static long otherStore(byte[] key) {
        long leader = placement.getRegion(key).orElseThrow().getLeader().getStoreId();
        return placement.getAllStores().stream().map(store -> store.getStore().getId())
                .filter(id -> id != leader).findFirst().orElseThrow();
    }

    @Test
    void locksOfACrashedClientAreResolvedAfterTheirTtl() {
        try (RegionRequestSender raw = new RegionRequestSender(new RegionCache(placement), Duration.ofSeconds(10),
                ReplicaRead.LEADER)) {
            // A client that prewrote two keys and died before committing: both roll back.
            long abandoned = placement.getTimestamp().packed();
            prewrite(raw, abandoned, "cr-primary", List.of("cr-primary", "cr-secondary"), 500);
            try (Transaction reader = client.begin()) {
                assertThat(reader.get(bytes("cr-secondary"))).isEmpty();
            }
            CommitResponse late = commit(raw, abandoned, "cr-primary", placement.getTimestamp().packed());
            assertThat(late.hasError()).isTrue();
            assertThat(late.getError().hasRolledBack()).isTrue();

            // A client that committed its primary and died before its secondaries: they roll forward.
            long halfway = placement.getTimestamp().packed();
            prewrite(raw, halfway, "cf-primary", List.of("cf-primary", "cf-secondary"), 500);
            assertThat(commit(raw, halfway, "cf-primary", placement.getTimestamp().packed()).hasError()).isFalse();
            try (Transaction reader = client.begin()) {
                assertThat(reader.get(bytes("cf-secondary")).map(ItTransactions::text)).hasValue("cf-secondary");
            }
            // A commit ts that is not after the start ts is refused.
            long bad = placement.getTimestamp().packed();
            prewrite(raw, bad, "bad-commit", List.of("bad-commit"), 500);
            CommitResponse refused = commit(raw, bad, "bad-commit", bad - 1);
            assertThat(refused.getError().getInvalid()).contains("not after start ts");
        }
    }

    @Test
    void latestReadsSeeTheLastCommitAndResolveLocksWithoutATimestamp() {
        try (Transaction writer = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            writer.put(bytes("lr-a"), bytes("1"));
            writer.commit();
        }
        try (Transaction latest = client.beginLatestRead()) {
            assertThat(latest.readsLatest()).isTrue();
            assertThat(latest.get(bytes("lr-a")).map(ItTransactions::text)).hasValue("1");
            assertThat(latest.get(bytes("lr-none"))).isEmpty();
            assertThatThrownBy(() -> latest.put(bytes("lr-a"), bytes("2"))).isInstanceOf(IllegalStateException.class);
            latest.commit();
        }
        try (RegionRequestSender raw = new RegionRequestSender(new RegionCache(placement), Duration.ofSeconds(10),
                ReplicaRead.LEADER)) {
            // Committed primary, secondary still locked: the newest version is the committed one, rolled forward.
            long halfway = placement.getTimestamp().packed();
            prewrite(raw, halfway, "lr-primary", List.of("lr-primary", "lr-secondary"), 500);
            assertThat(commit(raw, halfway, "lr-primary", placement.getTimestamp().packed()).hasError()).isFalse();
            try (Transaction latest = client.beginLatestRead()) {
                assertThat(latest.get(bytes("lr-secondary")).map(ItTransactions::text)).hasValue("lr-secondary");
            }
            // An abandoned prewrite is rolled back once its TTL passes, and the read sees the older value.
            long abandoned = placement.getTimestamp().packed();
            prewrite(raw, abandoned, "lr-a", List.of("lr-a"), 500);
            try (Transaction latest = client.beginLatestRead()) {
                assertThat(latest.get(bytes("lr-a")).map(ItTransactions::text)).hasValue("1");
            }
        }
    }

    @Test
    void aScanStopsAtTheFirstBlockingLockAndReadsPastVersionsNewerThanItsSnapshot() {
        put("sc-a", "a");
        put("sc-c", "c");
        put("sc-d", "d");
        put("sc-hot", "old");
        long snapshot = placement.getTimestamp().packed();
        for (int version = 0; version < 12; version++) {
            put("sc-hot", "new" + version);
        }
        try (Transaction deleter = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            deleter.delete(bytes("sc-d"));
            deleter.commit();
        }
        try (RegionRequestSender raw = new RegionRequestSender(new RegionCache(placement), Duration.ofSeconds(10),
                ReplicaRead.LEADER)) {
            long locked = placement.getTimestamp().packed();
            prewrite(raw, locked, "sc-b", List.of("sc-b"), 60_000);
            // At the older snapshot the lock is newer than the read: every value of that time, the hot key's old one.
            assertThat(scan(raw, snapshot).getPairsList()).extracting(pair -> pair.getKey().toStringUtf8() + "="
                    + pair.getValue().toStringUtf8()).containsExactly("sc-a=a", "sc-c=c", "sc-d=d", "sc-hot=old");
            TxnScanResponse blocked = scan(raw, placement.getTimestamp().packed());
            assertThat(blocked.getPairsList()).extracting(pair -> pair.getKey().toStringUtf8()).containsExactly("sc-a");
            assertThat(blocked.getError().getLocked().getKey().toStringUtf8()).isEqualTo("sc-b");
            assertThat(commit(raw, locked, "sc-b", placement.getTimestamp().packed()).hasError()).isFalse();
            assertThat(scan(raw, placement.getTimestamp().packed()).getPairsList()).extracting(pair ->
                    pair.getKey().toStringUtf8() + "=" + pair.getValue().toStringUtf8())
                    .containsExactly("sc-a=a", "sc-b=sc-b", "sc-c=c", "sc-hot=new11");
        }
    }

    private static void put(String key, String value) {
        try (Transaction writer = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            writer.put(bytes(key), bytes(value));
            writer.commit();
        }
    }

    private static TxnScanResponse scan(RegionRequestSender raw, long version) {
        return raw.call(bytes("sc-"), false, (context, stub) -> stub.kvScan(TxnScanRequest.newBuilder()
                        .setContext(context).setStartKey(ByteString.copyFromUtf8("sc-"))
                        .setEndKey(ByteString.copyFromUtf8("sc-z")).setLimit(100).setVersion(version).build()),
                TxnScanResponse::getRegionError, TxnScanResponse::hasRegionError, r -> "");
    }

    private static void prewrite(RegionRequestSender raw, long startTs, String primary, List<String> keys, long ttl) {
        for (String key : keys) {
            PrewriteResponse response = raw.call(bytes(key), false, (context, stub) -> stub.kvPrewrite(PrewriteRequest
                            .newBuilder().setContext(context).setPrimaryLock(ByteString.copyFromUtf8(primary))
                            .setStartVersion(startTs).setLockTtl(ttl).addMutations(Mutation.newBuilder().setOp(Op.PUT)
                                    .setKey(ByteString.copyFromUtf8(key)).setValue(ByteString.copyFromUtf8(key))).build()),
                    PrewriteResponse::getRegionError, PrewriteResponse::hasRegionError, r -> "");
            assertThat(response.getErrorsList()).isEmpty();
        }
    }

    private static CommitResponse commit(RegionRequestSender raw, long startTs, String key, long commitTs) {
        return raw.call(bytes(key), false, (context, stub) -> stub.kvCommit(CommitRequest.newBuilder().setContext(context)
                        .setStartVersion(startTs).addKeys(ByteString.copyFromUtf8(key)).setCommitVersion(commitTs).build()),
                CommitResponse::getRegionError, CommitResponse::hasRegionError, r -> "");
    }
}
