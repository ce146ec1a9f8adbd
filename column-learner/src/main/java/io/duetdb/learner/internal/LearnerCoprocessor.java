package io.duetdb.learner.internal;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;

import io.duetdb.common.coprocessor.CoprocessorHandler;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.region.RegionErrors;
import io.duetdb.compute.ArrowIpc;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.operator.BatchOperator;
import io.duetdb.compute.operator.DagPipeline;
import io.duetdb.compute.operator.ExecutorStatistics;
import io.duetdb.compute.scan.RowScanOperator;
import io.duetdb.learner.internal.metrics.LearnerMetrics;
import io.duetdb.learner.internal.proto.ReplicaState;
import io.duetdb.learner.internal.read.ColumnarScanOperator;
import io.duetdb.learner.internal.read.PackFilter;
import io.duetdb.learner.internal.region.ColumnarRegion;
import io.duetdb.learner.internal.stable.Layers;
import io.duetdb.learner.internal.storage.PendingWrite;
import io.duetdb.proto.coprocessor.CoprocessorRequest;
import io.duetdb.proto.coprocessor.CoprocessorResponse;
import io.duetdb.proto.coprocessor.DagRequest;
import io.duetdb.proto.coprocessor.ExecutionSummary;
import io.duetdb.proto.coprocessor.ExecutorSummary;
import io.duetdb.proto.coprocessor.IndexScan;
import io.duetdb.proto.coprocessor.KeyRange;
import io.duetdb.proto.coprocessor.PlanType;
import io.duetdb.proto.coprocessor.TableScan;
import io.duetdb.proto.kv.KeyError;
import io.duetdb.proto.kv.LockInfo;
import io.duetdb.proto.kv.Op;
import io.duetdb.proto.kv.RegionError;
import io.duetdb.proto.meta.Region;
import io.duetdb.raft.RaftGroupHandle;

/**
 * The learner's coprocessor (paper section 4.2.4): a read at a timestamp first asks the region's leader for its
 * commit index (ReadIndex) and waits until this replica has applied it, so it sees every write acknowledged
 * before the read began; a prewrite that may commit below the read timestamp is answered as a lock for the
 * client to resolve; then the plan runs over the replica's rows with the same operators the row store uses.
 */
public final class LearnerCoprocessor implements CoprocessorHandler {
    private static final Logger LOG = LoggerFactory.getLogger(LearnerCoprocessor.class);

    private final LearnerNode node;
    private final BufferAllocator allocator;
    private final Executor executor;
    private final Duration readWaitTimeout;
    private final LearnerMetrics metrics;

    public LearnerCoprocessor(LearnerNode node, BufferAllocator allocator, Executor executor, Duration readWaitTimeout,
            LearnerMetrics metrics) {
        this.node = requireNonNull(node, "node is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.readWaitTimeout = requireNonNull(readWaitTimeout, "readWaitTimeout is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    @Override
    public void execute(CoprocessorRequest request, ResponseSink sink) {
        long started = System.nanoTime();
        DagRequest dag;
        try {
            if (request.getPlanType() != PlanType.DAG) {
                throw new UnsupportedExpressionException("plan type " + request.getPlanType()
                        + " is not served by column learners");
            }
            dag = DagRequest.parseFrom(request.getPlan());
            DagPipeline.check(dag);
        } catch (InvalidProtocolBufferException | UnsupportedExpressionException e) {
            fail(sink, "invalid coprocessor plan: " + e.getMessage(), null);
            return;
        }
        long regionId = request.getContext().getRegionId();
        Optional<ColumnarRegion> found = node.replica(regionId);
        Optional<RaftGroupHandle> group = node.group(regionId);
        if (found.isEmpty() || group.isEmpty() || found.get().region() == null
                || found.get().state() == ReplicaState.TOMBSTONE) {
            regionError(sink, RegionErrors.regionNotFound(regionId));
            return;
        }
        ColumnarRegion replica = found.get();
        long resolved = replica.resolvedTs();
        if (resolved > 0 && request.getStartTs() <= resolved) {
            // Nothing can still commit at or below the read timestamp: no round to the leader, no lock to check.
            metrics.readWaitSeconds.observe(0);
            metrics.resolvedReads.inc();
            executor.execute(() -> run(request, dag, replica, sink, started, true));
            return;
        }
        long waitStarted = System.nanoTime();
        group.get().readIndex().orTimeout(readWaitTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .whenCompleteAsync((ignored, failure) -> {
                    metrics.readWaitSeconds.observe((System.nanoTime() - waitStarted) / 1e9);
                    if (failure != null) {
                        regionError(sink, RegionErrors.serverIsBusy("learner replica of region " + regionId
                                + " could not catch up with its leader within " + readWaitTimeout.toMillis() + " ms: "
                                + failure.getMessage(), 100));
                        return;
                    }
                    run(request, dag, replica, sink, started, false);
                }, executor);
    }

    private void run(CoprocessorRequest request, DagRequest dag, ColumnarRegion replica, ResponseSink sink, long started,
            boolean belowResolvedTs) {
        Region region = replica.region();
        if (region.getEpoch().getVersion() != request.getContext().getRegionEpoch().getVersion()
                || replica.state() != ReplicaState.NORMAL) {
            regionError(sink, RegionErrors.epochNotMatch(List.of(region), "region " + region.getId()
                    + " is at version " + region.getEpoch().getVersion() + " on this learner"));
            return;
        }
        List<byte[][]> ranges = new ArrayList<>(request.getRangesCount());
        for (KeyRange range : request.getRangesList()) {
            ranges.add(new byte[][] {range.getStart().toByteArray(), range.getEnd().toByteArray()});
        }
        long readTs = request.getStartTs();
        if (readTs < node.safePoint()) {
            metrics.coprocessorRequests.labelValues("gc_too_early").inc();
            sink.send(CoprocessorResponse.newBuilder().setLocked(KeyError.newBuilder().setGcTooEarly("read timestamp "
                    + readTs + " is older than the GC safe point " + node.safePoint() + ": the versions it needs may be"
                    + " gone (raise the GC life time for long transactions)")).build());
            sink.complete();
            return;
        }
        Layers layers = replica.layers();
        Optional<Map.Entry<byte[], PendingWrite>> blocking = belowResolvedTs ? Optional.empty()
                : layers.active().blockingWrite(ranges, readTs);
        if (blocking.isPresent()) {
            metrics.coprocessorRequests.labelValues("locked").inc();
            sink.send(CoprocessorResponse.newBuilder().setLocked(locked(blocking.get().getKey(), blocking.get().getValue()))
                    .build());
            sink.complete();
            return;
        }
        long outputRows = 0;
        long batches = 0;
        ColumnarScanOperator[] scan = new ColumnarScanOperator[1];
        ExecutorStatistics statistics = new ExecutorStatistics(dag.getExecutorsCount());
        try (BufferAllocator requestAllocator = allocator.newChildAllocator("learner-coprocessor-" + region.getId(), 0,
                allocator.getLimit());
                BatchOperator pipeline = DagPipeline.build(dag, new DagPipeline.ScanSource() {
                    @Override
                    public BatchOperator tableScan(TableScan tableScan) {
                        RowScanOperator.checkRanges(tableScan, ranges);
                        scan[0] = new ColumnarScanOperator(layers, ranges, readTs, tableScan, PackFilter.of(dag),
                                requestAllocator, DagPipeline.batchRows(dag));
                        return scan[0];
                    }

                    @Override
                    public BatchOperator indexScan(IndexScan indexScan) {
                        throw new UnsupportedExpressionException("column learners keep no indexes");
                    }
                }, requestAllocator, statistics)) {
            VectorSchemaRoot batch;
            while ((batch = pipeline.next()) != null) {
                if (!sink.awaitReady()) {
                    return;
                }
                outputRows += batch.getRowCount();
                batches++;
                sink.send(CoprocessorResponse.newBuilder()
                        .setArrowIpc(UnsafeByteOperations.unsafeWrap(ArrowIpc.write(batch))).build());
            }
        } catch (DuetException e) {
            fail(sink, e.getMessage(), e.code().name());
            return;
        } catch (UnsupportedExpressionException e) {
            fail(sink, "invalid coprocessor plan: " + e.getMessage(), null);
            return;
        } catch (RuntimeException e) {
            LOG.warn("learner coprocessor request on region {} failed", region.getId(), e);
            fail(sink, "learner coprocessor failed: " + e, null);
            return;
        }
        long elapsed = System.nanoTime() - started;
        long scanned = scan[0] == null ? 0 : scan[0].scannedRows();
        metrics.coprocessorRequests.labelValues("ok").inc();
        metrics.coprocessorRows.labelValues("scanned").inc(scanned);
        metrics.coprocessorRows.labelValues("returned").inc(outputRows);
        if (scan[0] != null) {
            metrics.packsScanned.labelValues("read").inc(scan[0].readPacks());
            metrics.packsScanned.labelValues("skipped").inc(scan[0].skippedPacks());
        }
        metrics.coprocessorSeconds.observe(elapsed / 1e9);
        ExecutionSummary.Builder summary = ExecutionSummary.newBuilder().setScannedRows(scanned)
                .setOutputRows(outputRows).setOutputBatches(batches).setElapsedNanos(elapsed);
        for (int i = 0; i < statistics.executors(); i++) {
            summary.addExecutors(ExecutorSummary.newBuilder().setOutputRows(statistics.outputRows(i))
                    .setElapsedNanos(statistics.elapsedNanos(i)));
        }
        sink.send(CoprocessorResponse.newBuilder().setSummary(summary).build());
        sink.complete();
    }

    private static KeyError locked(byte[] key, PendingWrite write) {
        Op op = switch (write.kind()) {
            case PUT -> Op.PUT;
            case DELETE -> Op.DELETE;
            case LOCK -> Op.LOCK;
        };
        return KeyError.newBuilder().setLocked(LockInfo.newBuilder().setKey(ByteString.copyFrom(key))
                .setPrimaryLock(ByteString.copyFrom(write.primary())).setLockVersion(write.startTs())
                .setLockTtl(write.ttlMillis()).setTxnSize(write.txnSize()).setLockType(op)
                .setLockForUpdateTs(write.forUpdateTs())).build();
    }

    private void regionError(ResponseSink sink, RegionError error) {
        metrics.coprocessorRequests.labelValues("region_error").inc();
        sink.send(CoprocessorResponse.newBuilder().setRegionError(error).build());
        sink.complete();
    }

    private void fail(ResponseSink sink, String message, String errorCode) {
        metrics.coprocessorRequests.labelValues("error").inc();
        CoprocessorResponse.Builder response = CoprocessorResponse.newBuilder().setError(message);
        if (errorCode != null) {
            response.setErrorCode(errorCode);
        }
        sink.send(response.build());
        sink.complete();
    }
}
