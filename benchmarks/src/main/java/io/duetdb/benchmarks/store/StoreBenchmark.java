package io.duetdb.benchmarks.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import io.duetdb.client.kv.RawKvClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.config.DataSize;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.benchmarks.common.LoadOptions;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.StoreAdminCalls;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Replicated raw writes and lease reads through the real client against three stores (three replicas, Raft
 * log fsync on), started in this JVM unless --pd names a running cluster; then throughput, threads and
 * resident memory with the key space cut into more regions.
 */
@Command(name = "store", mixinStandardHelpOptions = true, description = "Storage node throughput and latency.")
public final class StoreBenchmark implements Callable<Integer> {
    @Mixin
    LoadOptions load;

    @Option(names = "--value-size", defaultValue = "100")
    int valueSize;

    @Option(names = "--keys", defaultValue = "100000", description = "key space for reads and writes")
    int keys;

    @Option(names = "--batch", defaultValue = "32", description = "keys per batch get")
    int batch;

    @Option(names = "--workloads", split = ",", defaultValue = "write,get,batch-get")
    List<String> workloads;

    @Option(names = "--pipeline", defaultValue = "1",
            description = "requests each client keeps outstanding (1: each waits for its answer)")
    int pipeline;

    @Option(names = "--inflight", defaultValue = "2", description = "Raft entries a region leader keeps in flight")
    int inflight;

    @Option(names = "--raft-server-threads", defaultValue = "0", description = "Ratis server thread pool size; 0 for a cached pool")
    int raftServerThreads;

    @Option(names = "--regions", split = ",", defaultValue = "1,10,100", description = "region counts for the scaling run")
    List<Integer> regionCounts;

    @Option(names = "--idle-check", defaultValue = "20", description = "seconds to watch for leader changes while idle")
    int idleSeconds;

    record Result(String workload, int regions, double perSecond, long p50, long p99, double raftEntriesPerSecond,
            int threads, long rssMib) {
    }

    private java.util.function.LongSupplier raftEntries = () -> 0;

    public static void main(String[] args) {
        System.exit(new CommandLine(new StoreBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path root = Files.createTempDirectory("duet-store-bench");
        try (LocalCluster cluster = new LocalCluster(root, 1, config -> { }, config -> config
                .setBlockCacheSize(DataSize.ofMebibytes(64)).setReserveSpace(DataSize.ofMebibytes(256))
                .setMaxInflightProposals(inflight).setRaftServerThreads(raftServerThreads).setElectionTimeout(Duration.ofSeconds(1)));
                ) {
            cluster.start(3);
            raftEntries = cluster::raftProposals;
            try (PlacementClient placement = cluster.newPlacementClient();
                    RawKvClient kv = new RawKvClient(placement);
                    StoreAdminCalls admin = new StoreAdminCalls(placement)) {
                kv.put(key(0), value());
                LocalCluster.await("three replicas", Duration.ofSeconds(120), () -> placement.getRegion(key(0)).map(info ->
                        info.getRegion().getPeersList().stream().filter(p -> p.getRole() == PeerRole.VOTER).count() == 3)
                        .orElse(false));
                System.out.printf("loading %d keys%n", keys);
                load(kv);
                System.out.printf("warming up for %d s%n", load.warmupSeconds);
                run(kv, "write", load.warmupSeconds);
                List<Result> results = new ArrayList<>();
                int regions = 1;
                for (int target : regionCounts) {
                    if (target > regions) {
                        splitInto(admin, placement, target);
                        regions = target;
                        idleLeaderChanges(placement);
                    }
                    if (workloads.contains("write")) {
                        results.add(measure(kv, "write", regions));
                    }
                    if (workloads.contains("get")) {
                        results.add(measure(kv, "get", regions));
                    }
                    if (workloads.contains("batch-get")) {
                        results.add(measure(kv, "batch-get", regions));
                    }
                }
                System.out.println();
                System.out.printf("Store benchmark: 3 stores x 3 replicas in one JVM, %d clients x %d outstanding, %d-byte values, %d s per run%n",
                        load.clients, pipeline, valueSize, load.seconds);
                System.out.printf("%-10s %8s %14s %10s %10s %10s %8s %9s%n", "workload", "regions", "ops/s (keys/s)",
                        "p50 us", "p99 us", "entries/s", "threads", "RSS MiB");
                for (Result r : results) {
                    System.out.printf("%-10s %8d %,14.0f %10d %10d %,10.0f %8d %9d%n", r.workload(), r.regions(), r.perSecond(),
                            r.p50(), r.p99(), r.raftEntriesPerSecond(), r.threads(), r.rssMib());
                }
                System.out.println("entries/s: Raft entries the region leaders proposed per second (keys per entry = ops/s ÷ entries/s)");
            }
        }
        return 0;
    }

    private byte[] key(int index) {
        return String.format("bench-%08d", index).getBytes(StandardCharsets.UTF_8);
    }

    private byte[] value() {
        byte[] value = new byte[valueSize];
        ThreadLocalRandom.current().nextBytes(value);
        return value;
    }

    private void load(RawKvClient kv) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int thread = t;
            futures.add(pool.submit(() -> {
                for (int start = thread * 500; start < keys; start += 8 * 500) {
                    Map<byte[], byte[]> pairs = new LinkedHashMap<>();
                    for (int i = start; i < Math.min(keys, start + 500); i++) {
                        pairs.put(key(i), value());
                    }
                    kv.batchPut(pairs);
                }
                return null;
            }));
        }
        for (Future<?> future : futures) {
            future.get();
        }
        pool.shutdown();
    }

    private void splitInto(StoreAdminCalls admin, PlacementClient placement, int regions) {
        System.out.printf("splitting the key space into %d regions%n", regions);
        int step = Math.max(1, keys / regions);
        for (int i = 1; i < regions; i++) {
            byte[] splitKey = key(i * step);
            RegionInfo info = placement.getRegion(splitKey).orElseThrow();
            if (!java.util.Arrays.equals(info.getRegion().getStartKey().toByteArray(), splitKey)) {
                admin.split(splitKey);
            }
            if (i % 50 == 0) {
                System.out.printf("  %d regions%n", i + 1);
            }
        }
        LocalCluster.await(regions + " regions with leaders", Duration.ofMinutes(10), () -> {
            List<RegionInfo> all = placement.scanRegions(new byte[0], new byte[0], 0);
            return all.size() >= regions && all.stream().allMatch(RegionInfo::hasLeader);
        });
    }

    private void idleLeaderChanges(PlacementClient placement) throws InterruptedException {
        Map<Long, Long> before = leaders(placement);
        Thread.sleep(idleSeconds * 1000L);
        Map<Long, Long> after = leaders(placement);
        long changed = before.entrySet().stream().filter(e -> !e.getValue().equals(after.get(e.getKey()))).count();
        System.out.printf("  %d regions: %d leader changes in %d idle seconds%n", before.size(), changed, idleSeconds);
    }

    private static Map<Long, Long> leaders(PlacementClient placement) {
        Map<Long, Long> leaders = new LinkedHashMap<>();
        for (RegionInfo info : placement.scanRegions(new byte[0], new byte[0], 0)) {
            leaders.put(info.getRegion().getId(), info.hasLeader() ? info.getLeader().getStoreId() : -1);
        }
        return leaders;
    }

    private Result measure(RawKvClient kv, String workload, int regions) throws Exception {
        long entriesBefore = raftEntries.getAsLong();
        long[] outcome = run(kv, workload, load.seconds);
        double entries = (raftEntries.getAsLong() - entriesBefore) / (double) load.seconds;
        return new Result(workload, regions, outcome[0] / (double) load.seconds, outcome[1], outcome[2], entries,
                Thread.activeCount(), rssMib());
    }

    /** Runs the workload; returns {operations (keys for batch-get), p50 us, p99 us}. */
    private long[] run(RawKvClient kv, String workload, int durationSeconds) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder done = new LongAdder();
        Recorder latency = new Recorder(3);
        ExecutorService pool = Executors.newFixedThreadPool(load.clients);
        List<Future<?>> futures = new ArrayList<>();
        for (int c = 0; c < load.clients; c++) {
            futures.add(pool.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                byte[] value = value();
                if (pipeline > 1 && !workload.equals("batch-get")) {
                    java.util.ArrayDeque<long[]> starts = new java.util.ArrayDeque<>();
                    java.util.ArrayDeque<java.util.concurrent.CompletableFuture<?>> outstanding = new java.util.ArrayDeque<>();
                    while (!stop.get() || !outstanding.isEmpty()) {
                        if (!stop.get() && outstanding.size() < pipeline) {
                            starts.add(new long[] {System.nanoTime()});
                            byte[] key = key(random.nextInt(keys));
                            outstanding.add(workload.equals("write") ? kv.putAsync(key, value) : kv.getAsync(key));
                            continue;
                        }
                        outstanding.poll().join();
                        latency.recordValue((System.nanoTime() - starts.poll()[0]) / 1000);
                        done.increment();
                    }
                    return null;
                }
                while (!stop.get()) {
                    long start = System.nanoTime();
                    switch (workload) {
                        case "write" -> {
                            kv.put(key(random.nextInt(keys)), value);
                            done.increment();
                        }
                        case "get" -> {
                            kv.get(key(random.nextInt(keys)));
                            done.increment();
                        }
                        default -> {
                            List<byte[]> batchKeys = new ArrayList<>(batch);
                            int first = random.nextInt(Math.max(1, keys - batch));
                            for (int i = 0; i < batch; i++) {
                                batchKeys.add(key(first + i));
                            }
                            kv.batchGet(batchKeys);
                            done.add(batch);
                        }
                    }
                    latency.recordValue((System.nanoTime() - start) / 1000);
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
        return new long[] {done.sum(), histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99)};
    }

    private static long rssMib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
