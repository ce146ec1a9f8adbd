package io.duetdb.store.internal.coprocessor;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.UnsafeByteOperations;
import com.google.protobuf.InvalidProtocolBufferException;

import io.duetdb.common.coprocessor.CoprocessorHandler;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.checksum.KeyValueChecksum;
import io.duetdb.compute.ArrowIpc;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.operator.BatchOperator;
import io.duetdb.compute.operator.Batches;
import io.duetdb.compute.operator.DagPipeline;
import io.duetdb.compute.operator.ExecutorStatistics;
import io.duetdb.compute.scan.RowScanOperator;
import io.duetdb.compute.statistics.AnalyzeCollector;
import io.duetdb.proto.coprocessor.AnalyzeRequest;
import io.duetdb.proto.coprocessor.CoprocessorRequest;
import io.duetdb.proto.coprocessor.CoprocessorResponse;
import io.duetdb.proto.coprocessor.DagRequest;
import io.duetdb.proto.coprocessor.ExecutionSummary;
import io.duetdb.proto.coprocessor.ExecutorSummary;
import io.duetdb.proto.coprocessor.IndexScan;
import io.duetdb.proto.coprocessor.KeyRange;
import io.duetdb.proto.coprocessor.PlanType;
import io.duetdb.proto.coprocessor.TableScan;
import io.duetdb.store.engine.EngineSnapshot;
import io.duetdb.store.internal.TxnService;
import io.duetdb.store.internal.metrics.StoreMetrics;

/**
 * Runs DAG plans on this store's rows: prepares a snapshot read of the request's ranges (leader, read barrier,
 * locks), then pulls the plan's operators over a {@link RowScanOperator} and streams each output batch as Arrow
 * IPC, waiting for the client to be ready for more.
 */
public final class CoprocessorService implements CoprocessorHandler {
    private static final Logger LOG = LoggerFactory.getLogger(CoprocessorService.class);
    private static final long SLOW_REQUEST_NANOS = 1_000_000_000L;
    /** The largest sample one region returns for ANALYZE. */
    public static final int MAX_SAMPLE_ROWS = 100_000;

    private final TxnService txn;
    private final BufferAllocator allocator;
    private final Executor executor;
    private final StoreMetrics metrics;

    public CoprocessorService(TxnService txn, BufferAllocator allocator, Executor executor, StoreMetrics metrics) {
        this.txn = requireNonNull(txn, "txn is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    @Override
    public void execute(CoprocessorRequest request, ResponseSink sink) {
        long started = System.nanoTime();
        DagRequest dag;
        AnalyzeRequest analyze;
        try {
            if (request.getPlanType() == PlanType.DAG) {
                dag = DagRequest.parseFrom(request.getPlan());
                DagPipeline.check(dag);
                analyze = null;
            } else if (request.getPlanType() == PlanType.ANALYZE) {
                analyze = AnalyzeRequest.parseFrom(request.getPlan());
                if (analyze.getSampleSize() > MAX_SAMPLE_ROWS) {
                    throw new UnsupportedExpressionException("sample_size " + analyze.getSampleSize() + " exceeds "
                            + MAX_SAMPLE_ROWS);
                }
                dag = DagRequest.newBuilder().addExecutors(io.duetdb.proto.coprocessor.Executor.newBuilder()
                        .setTableScan(analyze.getTableScan())).build();
                DagPipeline.check(dag);
            } else if (request.getPlanType() == PlanType.CHECKSUM) {
                dag = null;
                analyze = null;
            } else {
                throw new UnsupportedExpressionException("plan type " + request.getPlanType() + " is not supported");
            }
        } catch (InvalidProtocolBufferException | UnsupportedExpressionException e) {
            fail(request, sink, "invalid coprocessor plan: " + e.getMessage(), null);
            return;
        }
        List<byte[][]> ranges = new ArrayList<>(request.getRangesCount());
        for (KeyRange range : request.getRangesList()) {
            ranges.add(new byte[][] {range.getStart().toByteArray(), range.getEnd().toByteArray()});
        }
        txn.snapshotRead(request.getContext(), ranges, request.getStartTs()).whenCompleteAsync((read, failure) -> {
            if (failure != null) {
                fail(request, sink, "snapshot read failed: " + failure.getMessage(), null);
                return;
            }
            if (read.regionError() != null) {
                metrics.coprocessorRequests.labelValues(plan(request), "region_error").inc();
                sink.send(CoprocessorResponse.newBuilder().setRegionError(read.regionError()).build());
                sink.complete();
                return;
            }
            if (read.error() != null) {
                metrics.coprocessorRequests.labelValues(plan(request), "locked").inc();
                sink.send(CoprocessorResponse.newBuilder().setLocked(read.error()).build());
                sink.complete();
                return;
            }
            if (read.invalid() != null) {
                fail(request, sink, read.invalid(), null);
                return;
            }
            try (var snapshot = read.snapshot()) {
                if (request.getPlanType() == PlanType.CHECKSUM) {
                    checksum(request, read.ranges(), snapshot, sink, started);
                } else if (analyze != null) {
                    analyze(request, analyze, read.ranges(), snapshot, sink, started);
                } else {
                    run(request, dag, read.ranges(), snapshot, sink, started);
                }
            }
        }, executor);
    }

    private void run(CoprocessorRequest request, DagRequest dag, List<byte[][]> ranges,
            EngineSnapshot snapshot, ResponseSink sink, long started) {
        long outputRows = 0;
        long batches = 0;
        LongSupplier[] scannedRows = {() -> 0};
        ExecutorStatistics statistics = new ExecutorStatistics(dag.getExecutorsCount());
        try (BufferAllocator requestAllocator = allocator.newChildAllocator("coprocessor-" + request.getContext().getRegionId(),
                0, allocator.getLimit());
                BatchOperator pipeline = DagPipeline.build(dag, new DagPipeline.ScanSource() {
                    @Override
                    public BatchOperator tableScan(TableScan tableScan) {
                        RowScanOperator.checkRanges(tableScan, ranges);
                        RowScanOperator scan = new RowScanOperator(new RangesCursor(snapshot, ranges, request.getStartTs()),
                                tableScan, requestAllocator, DagPipeline.batchRows(dag));
                        scannedRows[0] = scan::scannedRows;
                        return scan;
                    }

                    @Override
                    public BatchOperator indexScan(IndexScan indexScan) {
                        IndexScanOperator scan = new IndexScanOperator(snapshot, indexScan, ranges, request.getStartTs(),
                                requestAllocator, DagPipeline.batchRows(dag), DagPipeline.scanTypes(indexScan));
                        scannedRows[0] = scan::scannedRows;
                        return scan;
                    }
                }, requestAllocator, statistics)) {
            VectorSchemaRoot batch;
            while ((batch = pipeline.next()) != null) {
                if (!sink.awaitReady()) {
                    LOG.info("coprocessor request on region {} cancelled by its client after {} batches",
                            request.getContext().getRegionId(), batches);
                    return;
                }
                outputRows += batch.getRowCount();
                batches++;
                sink.send(arrowResponse(batch));
            }
        } catch (DuetException e) {
            fail(request, sink, e.getMessage(), e.code().name());
            return;
        } catch (UnsupportedExpressionException e) {
            fail(request, sink, "invalid coprocessor plan: " + e.getMessage(), null);
            return;
        } catch (RuntimeException e) {
            LOG.warn("coprocessor request on region {} failed", request.getContext().getRegionId(), e);
            fail(request, sink, "coprocessor failed: " + e, null);
            return;
        }
        long elapsed = System.nanoTime() - started;
        long scanned = scannedRows[0].getAsLong();
        metrics.coprocessorRequests.labelValues(plan(request), "ok").inc();
        metrics.coprocessorRows.labelValues("scanned").inc(scanned);
        metrics.coprocessorRows.labelValues("returned").inc(outputRows);
        metrics.coprocessorSeconds.observe(elapsed / 1e9);
        if (elapsed > SLOW_REQUEST_NANOS) {
            LOG.info("slow coprocessor request on region {}: {} rows scanned, {} returned in {} ms",
                    request.getContext().getRegionId(), scanned, outputRows, elapsed / 1_000_000);
        }
        ExecutionSummary.Builder summary = ExecutionSummary.newBuilder().setScannedRows(scanned)
                .setOutputRows(outputRows).setOutputBatches(batches).setElapsedNanos(elapsed);
        for (int i = 0; i < statistics.executors(); i++) {
            summary.addExecutors(ExecutorSummary.newBuilder().setOutputRows(statistics.outputRows(i))
                    .setElapsedNanos(statistics.elapsedNanos(i)));
        }
        sink.send(CoprocessorResponse.newBuilder().setSummary(summary).build());
        sink.complete();
    }

    /** ANALYZE: one pass over the rows into an {@link AnalyzeCollector}; its result, then its sample as batches. */
    private void analyze(CoprocessorRequest request, AnalyzeRequest analyze, List<byte[][]> ranges,
            EngineSnapshot snapshot, ResponseSink sink, long started) {
        int columns = analyze.getTableScan().getColumnsCount();
        List<int[]> groups = analyze.getColumnGroupsList().stream()
                .map(group -> group.getColumnsList().stream().mapToInt(Integer::intValue).toArray()).toList();
        AnalyzeCollector collector;
        try {
            collector = new AnalyzeCollector(columns, analyze.getSampleSize(),
                    analyze.getSeed() ^ request.getContext().getRegionId(), groups);
        } catch (IllegalArgumentException e) {
            fail(request, sink, "invalid analyze plan: " + e.getMessage(), null);
            return;
        }
        try (BufferAllocator requestAllocator = allocator.newChildAllocator("analyze-" + request.getContext().getRegionId(),
                0, allocator.getLimit());
                RowScanOperator scan = newRowScan(snapshot, analyze.getTableScan(), ranges, request.getStartTs(),
                        requestAllocator)) {
            VectorSchemaRoot batch;
            while ((batch = scan.next()) != null) {
                if (sink.cancelled()) {
                    LOG.info("analyze request on region {} cancelled by its client after {} rows",
                            request.getContext().getRegionId(), collector.rows());
                    return;
                }
                collector.add(batch);
            }
            sink.send(CoprocessorResponse.newBuilder().setAnalyzeResult(collector.result()).build());
            List<Object[]> sample = collector.sample();
            for (int from = 0; from < sample.size(); from += DagPipeline.DEFAULT_BATCH_ROWS) {
                if (!sink.awaitReady()) {
                    return;
                }
                List<Object[]> part = sample.subList(from, Math.min(sample.size(), from + DagPipeline.DEFAULT_BATCH_ROWS));
                try (VectorSchemaRoot rows = Batches.ofRows(scan.outputTypes(), part, requestAllocator)) {
                    sink.send(arrowResponse(rows));
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("analyze request on region {} failed", request.getContext().getRegionId(), e);
            fail(request, sink, "analyze failed: " + e, null);
            return;
        }
        long elapsed = System.nanoTime() - started;
        metrics.coprocessorRequests.labelValues(plan(request), "ok").inc();
        metrics.coprocessorRows.labelValues("scanned").inc(collector.rows());
        LOG.info("analyzed region {}: {} rows, {} sampled in {} ms", request.getContext().getRegionId(), collector.rows(),
                collector.sample().size(), elapsed / 1_000_000);
        sink.send(CoprocessorResponse.newBuilder().setSummary(ExecutionSummary.newBuilder()
                .setScannedRows(collector.rows()).setElapsedNanos(elapsed)).build());
        sink.complete();
    }

    /** CHECKSUM: every visible pair of the ranges into one {@link KeyValueChecksum}. */
    private void checksum(CoprocessorRequest request, List<byte[][]> ranges, EngineSnapshot snapshot, ResponseSink sink,
            long started) {
        KeyValueChecksum checksum = new KeyValueChecksum();
        try (RangesCursor cursor = new RangesCursor(snapshot, ranges, request.getStartTs())) {
            while (cursor.advance()) {
                if ((checksum.totalKvs() & 0xffff) == 0 && sink.cancelled()) {
                    LOG.info("checksum request on region {} cancelled by its client after {} pairs",
                            request.getContext().getRegionId(), checksum.totalKvs());
                    return;
                }
                checksum.add(cursor.userKey(), cursor.value());
            }
        } catch (RuntimeException e) {
            LOG.warn("checksum request on region {} failed", request.getContext().getRegionId(), e);
            fail(request, sink, "checksum failed: " + e, null);
            return;
        }
        long elapsed = System.nanoTime() - started;
        metrics.coprocessorRequests.labelValues(plan(request), "ok").inc();
        metrics.coprocessorRows.labelValues("scanned").inc(checksum.totalKvs());
        LOG.info("checksummed region {}: {} pairs, {} bytes in {} ms", request.getContext().getRegionId(),
                checksum.totalKvs(), checksum.totalBytes(), elapsed / 1_000_000);
        sink.send(CoprocessorResponse.newBuilder().setChecksumResult(checksum.result()).build());
        sink.send(CoprocessorResponse.newBuilder().setSummary(ExecutionSummary.newBuilder()
                .setScannedRows(checksum.totalKvs()).setElapsedNanos(elapsed)).build());
        sink.complete();
    }

    private static RowScanOperator newRowScan(EngineSnapshot snapshot, TableScan tableScan, List<byte[][]> ranges,
            long startTs, BufferAllocator allocator) {
        RowScanOperator.checkRanges(tableScan, ranges);
        return new RowScanOperator(new RangesCursor(snapshot, ranges, startTs), tableScan, allocator,
                DagPipeline.DEFAULT_BATCH_ROWS);
    }

    /** A batch as a response; the serialized array is wrapped, not copied, as nothing else holds it. */
    private static CoprocessorResponse arrowResponse(VectorSchemaRoot batch) {
        return CoprocessorResponse.newBuilder().setArrowIpc(UnsafeByteOperations.unsafeWrap(ArrowIpc.write(batch))).build();
    }

    /** The plan-type label of a request's metrics. */
    private static String plan(CoprocessorRequest request) {
        return switch (request.getPlanType()) {
            case ANALYZE -> "analyze";
            case CHECKSUM -> "checksum";
            default -> "dag";
        };
    }

    private void fail(CoprocessorRequest request, ResponseSink sink, String message, String errorCode) {
        metrics.coprocessorRequests.labelValues(plan(request), "error").inc();
        CoprocessorResponse.Builder response = CoprocessorResponse.newBuilder().setError(message);
        if (errorCode != null) {
            response.setErrorCode(errorCode);
        }
        sink.send(response.build());
        sink.complete();
    }
}
