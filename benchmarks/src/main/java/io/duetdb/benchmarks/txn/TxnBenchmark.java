package io.duetdb.benchmarks.txn;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import io.duetdb.client.placement.GrpcPlacementClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.placement.PlacementClientConfig;
import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.client.txn.TxnClientConfig;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.common.config.DataSize;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.error.DuetException;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.benchmarks.common.LoadOptions;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.StoreAdminCalls;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Transactions through the real client against three stores (three replicas, fsync on), in this JVM unless
 * --pd names a running cluster: small read-one-write-one transactions, then a hot-key contention run that
 * compares optimistic and pessimistic modes.
 */
@Command(name = "txn", mixinStandardHelpOptions = true, description = "Transaction throughput, latency and abort rates.")
public final class TxnBenchmark implements Callable<Integer> {
    @Option(names = "--pd", split = ",", description = "placement client addresses; default: an in-process cluster")
    List<String> endpoints;

    @Mixin
    LoadOptions load;

    @Option(names = "--keys", defaultValue = "100000")
    int keys;

    @Option(names = "--regions", defaultValue = "1", description = "regions the key space is split into (default: "
            + "${DEFAULT-VALUE}, the layout a fresh cluster gives a key space this small; more splits a running cluster's"
            + " region too)")
    int regions;

    @Option(names = "--hot-keys", split = ",", defaultValue = "1,16", description = "hot key counts for the contention runs")
    List<Integer> hotKeys;

    @Option(names = "--workloads", split = ",", defaultValue = "small,hot")
    List<String> workloads;

    @Option(names = "--modes", split = ",", defaultValue = "OPTIMISTIC,PESSIMISTIC")
    List<TxnMode> modes;

    @Option(names = "--in-memory-locks", defaultValue = "true", arity = "1",
            description = "region leaders keep pessimistic locks in memory (default: ${DEFAULT-VALUE})")
    boolean inMemoryLocks;

    @Option(names = "--inflight", defaultValue = "1", description = "Raft entries a region leader keeps in flight")
    int inflight;

    record Result(String workload, TxnMode mode, int hot, double committedPerSecond, double abortedPerSecond, long p50,
            long p99, double raftEntriesPerSecond, long[] stepMedians) {
    }

    /** The steps of a transaction whose latencies are reported separately (medians of committed transactions). */
    private static final String[] STEPS = {"begin", "read", "write", "commit"};

    /** Raft entries proposed so far by the in-process stores (0 against a remote cluster). */
    private java.util.function.LongSupplier raftEntries = () -> 0;

    public static void main(String[] args) {
        System.exit(new CommandLine(new TxnBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (endpoints != null && !endpoints.isEmpty()) {
            try (PlacementClient placement = new GrpcPlacementClient(PlacementClientConfig.of(
                    endpoints.stream().map(HostAndPort::parse).toList()), "bench")) {
                return runAll(placement);
            }
        }
        Path root = Files.createTempDirectory("duet-txn-bench");
        try (LocalCluster cluster = new LocalCluster(root, 1, config -> { }, config -> config
                .setBlockCacheSize(DataSize.ofMebibytes(64)).setReserveSpace(DataSize.ofMebibytes(256))
                .setMaxInflightProposals(inflight).setInMemoryPessimisticLocks(inMemoryLocks))) {
            cluster.start(3);
            raftEntries = cluster::raftProposals;
            try (PlacementClient placement = cluster.newPlacementClient()) {
                return runAll(placement);
            }
        }
    }

    private int runAll(PlacementClient placement) throws Exception {
        try (TxnClient client = new TxnClient(placement, TxnClientConfig.DEFAULT.withLockWaitTimeout(Duration.ofSeconds(10)));
                StoreAdminCalls admin = new StoreAdminCalls(placement)) {
            LocalCluster.await("the cluster to bootstrap", Duration.ofSeconds(60), () -> placement.getRegion(key(0)).isPresent());
            LocalCluster.await("three replicas", Duration.ofSeconds(120), () -> placement.getRegion(key(0)).map(info ->
                    info.getRegion().getPeersList().stream().filter(p -> p.getRole() == PeerRole.VOTER).count() == 3)
                    .orElse(false));
            System.out.printf("loading %d keys%n", keys);
            for (int start = 0; start < keys; start += 2_000) {
                try (Transaction txn = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
                    for (int i = start; i < Math.min(keys, start + 2_000); i++) {
                        txn.put(key(i), counter(0));
                    }
                    txn.commit();
                }
                if (start % 20_000 == 0) {
                    System.out.printf("  %d keys%n", start);
                }
            }
            for (int i = 1; i < regions; i++) {
                admin.split(key(i * (keys / regions)));
            }
            System.out.printf("%d regions; warming up for %d s%n", placement.scanRegions(new byte[0], new byte[0], 0).size(),
                    load.warmupSeconds);
            run(client, "small", TxnMode.OPTIMISTIC, 0, load.warmupSeconds);
            List<Result> results = new ArrayList<>();
            if (workloads.contains("small")) {
                for (TxnMode mode : modes) {
                    results.add(run(client, "small", mode, 0, load.seconds));
                }
            }
            if (workloads.contains("hot")) {
                for (int hot : hotKeys) {
                    for (TxnMode mode : modes) {
                        results.add(run(client, "hot", mode, hot, load.seconds));
                    }
                }
            }
            System.out.println();
            System.out.printf("Transaction benchmark: 3 stores x 3 replicas, %d clients, %d keys in %d regions, %d s per run%n",
                    load.clients, keys, regions, load.seconds);
            System.out.printf("%-6s %-12s %5s %14s %12s %8s %10s %10s %10s   %s%n", "run", "mode", "hot", "committed/s",
                    "aborted/s", "abort %", "p50 us", "p99 us", "entries/s", "p50 us of " + String.join(" / ", STEPS));
            for (Result r : results) {
                double abortRate = 100 * r.abortedPerSecond() / Math.max(1e-9, r.committedPerSecond() + r.abortedPerSecond());
                System.out.printf("%-6s %-12s %5s %,14.0f %,12.0f %8.1f %10d %10d %,10.0f   %s%n", r.workload(), r.mode(),
                        r.hot() == 0 ? "-" : Integer.toString(r.hot()), r.committedPerSecond(), r.abortedPerSecond(),
                        abortRate, r.p50(), r.p99(), r.raftEntriesPerSecond(),
                        java.util.Arrays.stream(r.stepMedians()).mapToObj(Long::toString)
                                .collect(java.util.stream.Collectors.joining(" / ")));
            }
            System.out.println("small: each transaction reads one random key and writes another; hot: each increments one of"
                    + " the hot keys (read for update, write); latency of committed transactions; entries/s: Raft entries"
                    + " the region leaders proposed per second");
        }
        return 0;
    }

    private static byte[] key(int index) {
        return String.format("txn-%08d", index).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] counter(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    private Result run(TxnClient client, String workload, TxnMode mode, int hot, int durationSeconds) throws Exception {
        System.out.printf("running %s %s%s for %d s%n", workload, mode, hot == 0 ? "" : " on " + hot + " hot keys",
                durationSeconds);
        long entriesBefore = raftEntries.getAsLong();
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder committed = new LongAdder();
        LongAdder aborted = new LongAdder();
        Recorder latency = new Recorder(3);
        Recorder[] steps = new Recorder[STEPS.length];
        for (int i = 0; i < steps.length; i++) {
            steps[i] = new Recorder(3);
        }
        ExecutorService pool = Executors.newFixedThreadPool(load.clients);
        List<Future<?>> futures = new ArrayList<>();
        for (int c = 0; c < load.clients; c++) {
            futures.add(pool.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (!stop.get()) {
                    long start = System.nanoTime();
                    long[] marks = new long[STEPS.length + 1];
                    marks[0] = start;
                    try (Transaction txn = client.begin(mode, Isolation.REPEATABLE_READ)) {
                        marks[1] = System.nanoTime();
                        if (workload.equals("small")) {
                            txn.get(key(random.nextInt(keys)));
                            marks[2] = System.nanoTime();
                            txn.put(key(random.nextInt(keys)), counter(random.nextLong()));
                        } else {
                            byte[] key = key(random.nextInt(hot));
                            long value = ByteBuffer.wrap(txn.getForUpdate(key).orElseThrow()).getLong();
                            marks[2] = System.nanoTime();
                            txn.put(key, counter(value + 1));
                        }
                        marks[3] = System.nanoTime();
                        txn.commit();
                        marks[4] = System.nanoTime();
                        committed.increment();
                        latency.recordValue((marks[4] - start) / 1000);
                        for (int i = 0; i < steps.length; i++) {
                            steps[i].recordValue((marks[i + 1] - marks[i]) / 1000);
                        }
                    } catch (DuetException e) {
                        aborted.increment();
                    }
                }
                return null;
            }));
        }
        Thread.sleep(durationSeconds * 1000L);
        stop.set(true);
        for (Future<?> future : futures) {
            future.get();
        }
        pool.shutdown();
        Histogram histogram = latency.getIntervalHistogram();
        long[] stepMedians = new long[steps.length];
        for (int i = 0; i < steps.length; i++) {
            stepMedians[i] = steps[i].getIntervalHistogram().getValueAtPercentile(50);
        }
        return new Result(workload, mode, hot, committed.sum() / (double) durationSeconds,
                aborted.sum() / (double) durationSeconds, histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99),
                (raftEntries.getAsLong() - entriesBefore) / (double) durationSeconds, stepMedians);
    }
}
