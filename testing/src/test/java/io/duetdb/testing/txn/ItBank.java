package io.duetdb.testing.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.client.txn.TxnClientConfig;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.common.error.DuetException;
import io.duetdb.testing.BankWorkload;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.StoreAdminCalls;

/** Snapshot isolation under load and under region changes: the bank invariant and a long-fork check. */
class ItBank {
    @TempDir
    Path root;

    @Test
    void transfersKeepTheTotalThroughLeaderTransfersAndSplits() throws Exception {
        try (LocalCluster cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
                PlacementClient placement = cluster.newPlacementClient();
                StoreAdminCalls admin = new StoreAdminCalls(placement);
                TxnClient client = new TxnClient(placement, TxnClientConfig.DEFAULT.withLockTtl(Duration.ofSeconds(3))
                        .withLockWaitTimeout(Duration.ofSeconds(2)))) {
            BankWorkload bank = new BankWorkload(client, "bank", 40, 1_000);
            bank.load();
            admin.split(bank.account(20));
            bank.startTransfers(4, TxnMode.PESSIMISTIC);
            bank.startTransfers(2, TxnMode.OPTIMISTIC);
            bank.startReaders(2);
            List<Long> storeIds = placement.getAllStores().stream().map(store -> store.getStore().getId()).toList();
            int transfers = 0;
            for (int round = 0; round < 8; round++) {
                Thread.sleep(1_500);
                long target = storeIds.get(ThreadLocalRandom.current().nextInt(storeIds.size()));
                if (admin.transferLeader(bank.account(round % 2 == 0 ? 5 : 30), target)) {
                    transfers++;
                }
                if (round == 3) {
                    admin.split(bank.account(10));
                }
            }
            BankWorkload.Stats stats = bank.stop();
            System.out.println("bank: " + stats + ", leader transfers " + transfers);
            assertThat(stats.transfers()).as("committed transfers").isGreaterThan(50);
            assertThat(stats.reads()).as("checked snapshots").isGreaterThan(20);
            // A lock granted while its leader hands over is answered once it applied (it lost nine of 571 here).
            // Known residue, not yet explained: about one run in nine loses one lock of some 500 transactions when
            // transfers come back to back (the placement's leader balancing and this test's own); the transaction
            // fails with a retryable error and the bank's total holds. More than that is a regression.
            assertThat(stats.lostLocks()).as("pessimistic locks lost in planned transfers and splits")
                    .isLessThanOrEqualTo(Math.max(1, stats.transfers() / 300));
            assertThat(placement.scanRegions(new byte[0], new byte[0], 0)).hasSizeGreaterThanOrEqualTo(3);
        }
    }

    /**
     * Two writers each bump their own counter; readers record the pair they see. Under snapshot isolation
     * every snapshot is a prefix of one commit order, so the observed pairs are totally ordered: no reader
     * may see x ahead of another reader's x while seeing y behind it (a long fork), nor a pair going back.
     */
    @Test
    void snapshotsNeverFork() throws Exception {
        try (LocalCluster cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
                PlacementClient placement = cluster.newPlacementClient();
                StoreAdminCalls admin = new StoreAdminCalls(placement);
                TxnClient client = new TxnClient(placement)) {
            byte[] x = "fork-x".getBytes(StandardCharsets.UTF_8);
            byte[] y = "fork-y".getBytes(StandardCharsets.UTF_8);
            try (Transaction init = client.begin()) {
                init.put(x, ByteBuffer.allocate(8).putLong(0).array());
                init.put(y, ByteBuffer.allocate(8).putLong(0).array());
                init.commit();
            }
            admin.split(y);
            AtomicBoolean running = new AtomicBoolean(true);
            List<Thread> threads = new ArrayList<>();
            for (byte[] counter : List.of(x, y)) {
                threads.add(new Thread(() -> {
                    while (running.get()) {
                        try (Transaction txn = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ)) {
                            long value = ByteBuffer.wrap(txn.getForUpdate(counter).orElseThrow()).getLong();
                            txn.put(counter, ByteBuffer.allocate(8).putLong(value + 1).array());
                            txn.commit();
                        } catch (DuetException e) {
                            // Retried by the next round.
                        }
                    }
                }));
            }
            Set<List<Long>> observed = java.util.concurrent.ConcurrentHashMap.newKeySet();
            for (int i = 0; i < 3; i++) {
                threads.add(new Thread(() -> {
                    while (running.get()) {
                        try (Transaction txn = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
                            long seenX = ByteBuffer.wrap(txn.get(x).orElseThrow()).getLong();
                            long seenY = ByteBuffer.wrap(txn.get(y).orElseThrow()).getLong();
                            observed.add(List.of(seenX, seenY));
                        }
                    }
                }));
            }
            threads.forEach(Thread::start);
            Thread.sleep(8_000);
            running.set(false);
            for (Thread thread : threads) {
                thread.join(30_000);
            }
            List<List<Long>> pairs = new ArrayList<>(new HashSet<>(observed));
            assertThat(pairs.size()).as("distinct snapshots observed").isGreaterThan(10);
            for (List<Long> a : pairs) {
                for (List<Long> b : pairs) {
                    boolean ordered = (a.get(0) <= b.get(0) && a.get(1) <= b.get(1))
                            || (a.get(0) >= b.get(0) && a.get(1) >= b.get(1));
                    assertThat(ordered).as("snapshots " + a + " and " + b + " fork").isTrue();
                }
            }
        }
    }
}
