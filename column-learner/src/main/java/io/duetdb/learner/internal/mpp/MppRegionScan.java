package io.duetdb.learner.internal.mpp;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import com.google.protobuf.ByteString;

import io.duetdb.compute.operator.BatchOperator;
import io.duetdb.compute.operator.DagPipeline;
import io.duetdb.compute.scan.RowScanOperator;
import io.duetdb.learner.internal.LearnerNode;
import io.duetdb.learner.internal.proto.ReplicaState;
import io.duetdb.learner.internal.read.ColumnarScanOperator;
import io.duetdb.learner.internal.read.PackFilter;
import io.duetdb.learner.internal.region.ColumnarRegion;
import io.duetdb.learner.internal.stable.Layers;
import io.duetdb.learner.internal.storage.PendingWrite;
import io.duetdb.proto.coprocessor.DagRequest;
import io.duetdb.proto.coprocessor.Executor;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.KeyRange;
import io.duetdb.proto.coprocessor.Selection;
import io.duetdb.proto.kv.LockInfo;
import io.duetdb.proto.mpp.MppError;
import io.duetdb.proto.mpp.MppTableScan;
import io.duetdb.proto.mpp.RegionRead;
import io.duetdb.raft.RaftGroupHandle;

/**
 * An MPP task's table scan: the regions the coordinator gave this task, one after another, each read from this
 * learner's replica at the query's timestamp as the coprocessor reads it (at or below the resolved timestamp at once,
 * else after a ReadIndex). A region this learner no longer holds at the expected epoch, or a prewrite that may commit
 * below the read timestamp, stops the task with an error the coordinator retries on.
 */
final class MppRegionScan implements BatchOperator {
    private final LearnerNode node;
    private final MppTableScan scan;
    private final PackFilter filter;
    private final long readTs;
    private final Duration readWaitTimeout;
    private final BufferAllocator allocator;
    private final List<FieldType> types;
    private int nextRegion;
    private ColumnarScanOperator current;
    private long scannedRows;
    private final Cancellation cancellation;

    MppRegionScan(LearnerNode node, MppTableScan scan, Selection selectionAbove, long readTs, Duration readWaitTimeout,
            BufferAllocator allocator, Cancellation cancellation) {
        this.cancellation = requireNonNull(cancellation, "cancellation is null");
        this.node = requireNonNull(node, "node is null");
        this.scan = requireNonNull(scan, "scan is null");
        this.readTs = readTs;
        this.readWaitTimeout = requireNonNull(readWaitTimeout, "readWaitTimeout is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.types = DagPipeline.scanTypes(scan.getScan());
        DagRequest.Builder dag = DagRequest.newBuilder().addExecutors(Executor.newBuilder().setTableScan(scan.getScan()));
        if (selectionAbove != null) {
            dag.addExecutors(Executor.newBuilder().setSelection(selectionAbove));
        }
        this.filter = PackFilter.of(dag.build());
    }

    @Override
    public List<FieldType> outputTypes() {
        return types;
    }

    @Override
    public VectorSchemaRoot next() {
        while (true) {
            cancellation.check();
            if (current != null) {
                VectorSchemaRoot batch = current.next();
                if (batch != null) {
                    return batch;
                }
                scannedRows += current.scannedRows();
                current.close();
                current = null;
            }
            if (nextRegion >= scan.getRegionsCount()) {
                return null;
            }
            current = open(scan.getRegions(nextRegion++));
        }
    }

    long scannedRows() {
        return scannedRows + (current == null ? 0 : current.scannedRows());
    }

    private ColumnarScanOperator open(RegionRead read) {
        long regionId = read.getContext().getRegionId();
        Optional<ColumnarRegion> found = node.replica(regionId);
        Optional<RaftGroupHandle> group = node.group(regionId);
        if (found.isEmpty() || group.isEmpty() || found.get().region() == null
                || found.get().state() == ReplicaState.TOMBSTONE) {
            throw MppTaskException.regions("region " + regionId + " has no replica on this learner");
        }
        ColumnarRegion replica = found.get();
        long resolved = replica.resolvedTs();
        boolean belowResolvedTs = resolved > 0 && readTs <= resolved;
        if (!belowResolvedTs) {
            try {
                group.get().readIndex().get(readWaitTimeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw MppTaskException.of("the task was interrupted waiting for region " + regionId);
            } catch (ExecutionException | TimeoutException e) {
                throw MppTaskException.regions("learner replica of region " + regionId + " could not catch up with its"
                        + " leader within " + readWaitTimeout.toMillis() + " ms");
            }
        }
        if (replica.region().getEpoch().getVersion() != read.getContext().getRegionEpoch().getVersion()
                || replica.state() != ReplicaState.NORMAL) {
            throw MppTaskException.regions("region " + regionId + " is at version "
                    + replica.region().getEpoch().getVersion() + " on this learner");
        }
        if (readTs < node.safePoint()) {
            throw MppTaskException.of("read timestamp " + readTs + " is older than the GC safe point " + node.safePoint());
        }
        List<byte[][]> ranges = new ArrayList<>(read.getRangesCount());
        for (KeyRange range : read.getRangesList()) {
            ranges.add(new byte[][] {range.getStart().toByteArray(), range.getEnd().toByteArray()});
        }
        RowScanOperator.checkRanges(scan.getScan(), ranges);
        Layers layers = replica.layers();
        if (!belowResolvedTs) {
            Optional<Map.Entry<byte[], PendingWrite>> blocking = layers.active().blockingWrite(ranges, readTs);
            if (blocking.isPresent()) {
                PendingWrite write = blocking.get().getValue();
                throw new MppTaskException(MppError.newBuilder().setMessage("a lock in region " + regionId)
                        .setLocked(LockInfo.newBuilder().setKey(ByteString.copyFrom(blocking.get().getKey()))
                                .setPrimaryLock(ByteString.copyFrom(write.primary())).setLockVersion(write.startTs())
                                .setLockTtl(write.ttlMillis()).setTxnSize(write.txnSize())
                                .setLockForUpdateTs(write.forUpdateTs()))
                        .build());
            }
        }
        return new ColumnarScanOperator(layers, ranges, readTs, scan.getScan(), filter, allocator,
                DagPipeline.DEFAULT_BATCH_ROWS);
    }

    @Override
    public void close() {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
