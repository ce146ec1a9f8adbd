package io.duetdb.benchmarks.tso;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import io.duetdb.client.placement.GrpcPlacementClient;
import io.duetdb.client.placement.PlacementClientConfig;
import io.duetdb.client.placement.TsoStatistics;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.time.Timestamp;
import io.duetdb.testing.LocalPlacementCluster;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Timestamps per second through the real gRPC client against a three-member placement cluster (started in
 * this JVM on loopback unless --pd names a running one), with 1, 16 and 256 caller threads, each calling
 * synchronously (one timestamp at a time) or asynchronously (a window of outstanding requests, as TiDB
 * pipelines its TSO calls). Prints throughput, per-call latency and the client's per-batch RPC latency.
 */
@Command(name = "tso", mixinStandardHelpOptions = true, description = "TSO throughput and latency.")
public final class TsoBenchmark implements Callable<Integer> {
    @Option(names = "--pd", split = ",", description = "placement client addresses; default: start 3 members in-process")
    List<String> endpoints;

    @Option(names = "--threads", split = ",", defaultValue = "1,16,256")
    List<Integer> threadCounts;

    @Option(names = "--mode", split = ",", defaultValue = "sync,async", description = "sync, async or both")
    List<String> modes;

    @Option(names = "--seconds", defaultValue = "10", description = "measured time per run")
    int seconds;

    @Option(names = "--warmup", defaultValue = "10", description = "warm-up seconds before the first run")
    int warmupSeconds;

    @Option(names = "--window", defaultValue = "64", description = "outstanding requests per thread in async mode")
    int window;

    @Option(names = "--inflight", defaultValue = "" + PlacementClientConfig.DEFAULT_TSO_MAX_INFLIGHT,
            description = "TSO requests the client keeps in flight on its stream")
    int inflight;

    @Option(names = "--runs", defaultValue = "3", description = "repetitions of each configuration; the median is reported")
    int runs;

    record Result(String mode, int threads, double timestampsPerSecond, double batchesPerSecond, double meanBatch,
            long callP50, long callP99, long batchP50, long batchP99) {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new TsoBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path root = Files.createTempDirectory("duet-tso-bench");
        LocalPlacementCluster cluster = null;
        List<HostAndPort> addresses;
        if (endpoints == null) {
            cluster = new LocalPlacementCluster(root, 3, config -> config.setElectionTimeout(Duration.ofSeconds(1))).start();
            cluster.awaitLeader(Duration.ofSeconds(60));
            addresses = cluster.clientAddresses();
            System.out.println("started a 3-member placement cluster in this JVM: " + addresses);
        } else {
            addresses = endpoints.stream().map(HostAndPort::parse).toList();
        }
        try (GrpcPlacementClient client = new GrpcPlacementClient(new PlacementClientConfig(addresses,
                PlacementClientConfig.DEFAULT_REQUEST_TIMEOUT, PlacementClientConfig.DEFAULT_TSO_MAX_BATCH, inflight), "bench")) {
            System.out.printf("warming up for %d s%n", warmupSeconds);
            measure(client, "async", 16, warmupSeconds);
            List<Result> results = new ArrayList<>();
            for (String mode : modes) {
                for (int threads : threadCounts) {
                    List<Result> repeated = new ArrayList<>();
                    for (int run = 0; run < runs; run++) {
                        Result result = measure(client, mode, threads, seconds);
                        repeated.add(result);
                        System.out.printf("  %-5s %4d threads run %d: %,12.0f ts/s%n", mode, threads, run + 1,
                                result.timestampsPerSecond());
                    }
                    repeated.sort((a, b) -> Double.compare(a.timestampsPerSecond(), b.timestampsPerSecond()));
                    results.add(repeated.get(repeated.size() / 2));
                }
            }
            System.out.println();
            System.out.printf("TSO benchmark: 3 placement members, gRPC client with %d requests in flight, %d s per run, median of %d runs%n",
                    inflight, seconds, runs);
            System.out.printf("%-6s %8s %14s %12s %10s %12s %12s %13s %13s%n", "mode", "threads", "timestamps/s",
                    "batches/s", "ts/batch", "call p50 us", "call p99 us", "batch p50 us", "batch p99 us");
            for (Result r : results) {
                System.out.printf("%-6s %8d %,14.0f %,12.0f %10.1f %12d %12d %13d %13d%n", r.mode(), r.threads(),
                        r.timestampsPerSecond(), r.batchesPerSecond(), r.meanBatch(), r.callP50(), r.callP99(),
                        r.batchP50(), r.batchP99());
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
        return 0;
    }

    private Result measure(GrpcPlacementClient client, String mode, int threads, int durationSeconds) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder completed = new LongAdder();
        Recorder callLatency = new Recorder(3);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> workers = new ArrayList<>();
        client.tsoStatistics();
        long started = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            workers.add(pool.submit(() -> {
                if (mode.equals("sync")) {
                    long previous = 0;
                    while (!stop.get()) {
                        long begin = System.nanoTime();
                        Timestamp ts = client.getTimestamp();
                        callLatency.recordValue((System.nanoTime() - begin) / 1000);
                        if (ts.packed() <= previous) {
                            throw new IllegalStateException("timestamps went backwards: " + ts + " after " + previous);
                        }
                        previous = ts.packed();
                        completed.increment();
                    }
                } else {
                    ArrayDeque<long[]> starts = new ArrayDeque<>();
                    ArrayDeque<CompletableFuture<Timestamp>> outstanding = new ArrayDeque<>();
                    while (!stop.get() || !outstanding.isEmpty()) {
                        if (!stop.get() && outstanding.size() < window) {
                            starts.add(new long[] {System.nanoTime()});
                            outstanding.add(client.getTimestampAsync());
                            continue;
                        }
                        outstanding.poll().join();
                        callLatency.recordValue((System.nanoTime() - starts.poll()[0]) / 1000);
                        completed.increment();
                    }
                }
                return null;
            }));
        }
        Thread.sleep(durationSeconds * 1000L);
        stop.set(true);
        for (Future<?> worker : workers) {
            worker.get();
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        pool.shutdown();
        TsoStatistics statistics = client.tsoStatistics();
        Histogram calls = callLatency.getIntervalHistogram();
        Histogram batches = statistics.batchLatencyMicros();
        return new Result(mode, threads, completed.sum() / elapsed, statistics.batches() / elapsed,
                statistics.batches() == 0 ? 0 : (double) statistics.timestamps() / statistics.batches(),
                calls.getValueAtPercentile(50), calls.getValueAtPercentile(99),
                batches.getValueAtPercentile(50), batches.getValueAtPercentile(99));
    }
}
