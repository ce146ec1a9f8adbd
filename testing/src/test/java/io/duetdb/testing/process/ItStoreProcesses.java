package io.duetdb.testing.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.client.kv.RawKvClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.client.txn.TxnClientConfig;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.testing.BankWorkload;
import io.duetdb.testing.JavaProcess;
import io.duetdb.testing.KeyWriters;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.LocalPlacementCluster;

/**
 * Three `duet store` processes; the leader's is killed with SIGKILL under raw writes and bank transfers and
 * started again: no acknowledged write is lost and every snapshot still sees the bank's total.
 */
class ItStoreProcesses {
    @TempDir
    Path root;
    private final List<JavaProcess> stores = new ArrayList<>();
    private final List<List<String>> arguments = new ArrayList<>();

    @AfterEach
    void stopAll() throws InterruptedException {
        for (JavaProcess store : stores) {
            if (store != null) {
                store.close();
            }
        }
    }

    private JavaProcess start(int index) throws Exception {
        JavaProcess process = JavaProcess.startDuet(root.resolve("store-" + index + "-" + System.nanoTime() + ".out"),
                arguments.get(index));
        stores.set(index, process);
        return process;
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void killingAStoreUnderWritesLosesNoAcknowledgedWrite() throws Exception {
        try (LocalPlacementCluster placementCluster = new LocalPlacementCluster(root.resolve("pd"), 1,
                config -> config.setStoreDisconnectTime(Duration.ofSeconds(5))).start()) {
            placementCluster.awaitLeader(Duration.ofSeconds(30));
            String pd = placementCluster.clientAddresses().get(0).toString();
            for (int i = 0; i < 3; i++) {
                int port = LocalPlacementCluster.freePort();
                arguments.add(List.of("store", "--pd", pd, "--data-dir", root.resolve("store-" + i).toString(),
                        "--port", Integer.toString(port), "--raft-port", Integer.toString(LocalPlacementCluster.freePort()),
                        "--status-port", Integer.toString(LocalPlacementCluster.freePort())));
                stores.add(null);
                start(i);
            }
            try (PlacementClient placement = placementCluster.newClient(); RawKvClient kv = new RawKvClient(placement);
                    TxnClient txnClient = new TxnClient(placement, TxnClientConfig.DEFAULT.withLockTtl(Duration.ofSeconds(3))
                            .withLockWaitTimeout(Duration.ofSeconds(2)))) {
                LocalCluster.await("the first store to bootstrap the cluster", Duration.ofSeconds(60),
                        () -> placement.getRegion(bytes("p-seed")).isPresent());
                kv.put(bytes("p-seed"), bytes("x"));
                LocalCluster.await("three voters", Duration.ofSeconds(90), () -> placement.getRegion(bytes("p-seed"))
                        .map(info -> info.getRegion().getPeersList().stream().filter(p -> p.getRole() == PeerRole.VOTER)
                                .count() == 3).orElse(false));
                KeyWriters writers = new KeyWriters(kv, List.of("p-0", "p-1", "p-2", "p-3"), key -> key);
                // Transactions run beside the raw writes: the bank invariant must hold through the kill.
                BankWorkload bank = new BankWorkload(txnClient, "t-bank", 20, 1_000);
                bank.load();
                bank.startTransfers(3, TxnMode.PESSIMISTIC);
                bank.startTransfers(1, TxnMode.OPTIMISTIC);
                bank.startReaders(1);
                Thread.sleep(3_000);
                RegionInfo region = placement.getRegion(bytes("p-seed")).orElseThrow();
                long leaderStore = region.getLeader().getStoreId();
                int victim = indexOfStore(placement, leaderStore);
                int before = writers.acknowledgedCount();
                long transfersBefore = bank.transfersSoFar();
                System.out.println(System.currentTimeMillis() + " killing store " + leaderStore);
                stores.get(victim).kill();
                Thread.sleep(6_000);
                int duringOutage = writers.acknowledgedCount() - before;
                start(victim);
                Thread.sleep(3_000);
                writers.stop();
                BankWorkload.Stats bankStats = bank.stop();
                System.out.println("bank through kill -9: " + bankStats);
                assertThat(bankStats.transfers() - transfersBefore).as("transfers after the kill").isPositive();
                Set<String> acknowledged = writers.acknowledged();
                assertThat(duringOutage).as("writes kept succeeding after the leader's store was killed").isPositive();
                List<String> present = kv.scan(bytes("p-0"), bytes("p-9"), 1_000_000, false).stream()
                        .map(pair -> pair.getKey().toStringUtf8()).toList();
                assertThat(present).containsAll(acknowledged);
                assertThat(acknowledged.size()).isGreaterThan(200);
            }
        }
    }

    private int indexOfStore(PlacementClient placement, long storeId) {
        String address = placement.getStore(storeId).orElseThrow().getStore().getAddress();
        String port = address.substring(address.lastIndexOf(':') + 1);
        for (int i = 0; i < arguments.size(); i++) {
            if (arguments.get(i).get(arguments.get(i).indexOf("--port") + 1).equals(port)) {
                return i;
            }
        }
        throw new AssertionError("no process for store " + storeId);
    }
}
