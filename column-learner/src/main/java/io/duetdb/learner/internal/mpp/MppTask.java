package io.duetdb.learner.internal.mpp;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.compute.ArrowIpc;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.expression.VectorExpression;
import io.duetdb.compute.expression.VectorExpressions;
import io.duetdb.compute.operator.BatchOperator;
import io.duetdb.compute.operator.FragmentPipeline;
import io.duetdb.compute.operator.HashPartitioner;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.mpp.DispatchTaskRequest;
import io.duetdb.proto.mpp.ExchangeType;
import io.duetdb.proto.mpp.MppDataPacket;
import io.duetdb.proto.mpp.MppError;
import io.duetdb.proto.mpp.TaskMeta;

/**
 * One task of an MPP query on this learner: its fragment's operators, run on a thread of its own, and its exchange
 * sender, which hands each output batch to the receivers' tunnels (all of it to one, a copy to each, or each row to
 * the one its keys hash to). Its operators are built (and so checked) before it is registered as running.
 */
final class MppTask implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(MppTask.class);

    private final DispatchTaskRequest request;
    private final BatchOperator pipeline;
    private final BufferAllocator allocator;
    private final List<ExchangeTunnel> tunnels = new ArrayList<>();
    private final HashPartitioner partitioner;
    private final AtomicLong heldBytes;
    private final Runnable finished;
    private final Cancellation cancellation;
    private long outputRows;
    /** Receivers that have not yet taken their whole stream. */
    private final AtomicInteger undrained;

    MppTask(DispatchTaskRequest request, BatchOperator pipeline, BufferAllocator allocator, AtomicLong heldBytes,
            long deadlineNanos, Cancellation cancellation, Runnable finished) {
        this.cancellation = requireNonNull(cancellation, "cancellation is null");
        this.request = requireNonNull(request, "request is null");
        this.pipeline = requireNonNull(pipeline, "pipeline is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.heldBytes = requireNonNull(heldBytes, "heldBytes is null");
        this.finished = requireNonNull(finished, "finished is null");
        int targets = request.getSender().getTargetsCount();
        if (targets == 0) {
            throw new UnsupportedExpressionException("an exchange sender without targets");
        }
        if (request.getSender().getType() == ExchangeType.PASS_THROUGH && targets != 1) {
            throw new UnsupportedExpressionException("a pass-through exchange has one target, not " + targets);
        }
        for (int i = 0; i < targets; i++) {
            tunnels.add(new ExchangeTunnel(deadlineNanos, cancellation));
        }
        undrained = new AtomicInteger(targets);
        if (request.getSender().getType() == ExchangeType.HASH) {
            List<VectorExpression> keys = new ArrayList<>();
            for (Expression key : request.getSender().getPartitionKeysList()) {
                keys.add(VectorExpressions.build(key, pipeline.outputTypes()));
            }
            partitioner = new HashPartitioner(keys, targets);
        } else {
            partitioner = null;
        }
    }

    TaskMeta meta() {
        return request.getMeta();
    }

    /** The tunnel to the receiving task {@code receiverTaskId}, or null when this task does not send to it. */
    ExchangeTunnel tunnelTo(long receiverTaskId) {
        List<TaskMeta> targets = request.getSender().getTargetsList();
        for (int i = 0; i < targets.size(); i++) {
            if (targets.get(i).getTaskId() == receiverTaskId) {
                return tunnels.get(i);
            }
        }
        return null;
    }

    @Override
    public void run() {
        long started = System.nanoTime();
        MppError error = null;
        try (allocator; pipeline) {
            VectorSchemaRoot batch;
            while ((batch = pipeline.next()) != null) {
                cancellation.check();
                outputRows += batch.getRowCount();
                send(batch);
                if (tunnels.stream().allMatch(ExchangeTunnel::gone)) {
                    // Every receiver has what it needs (a LIMIT, or joins with nothing to match).
                    break;
                }
            }
            for (ExchangeTunnel tunnel : tunnels) {
                tunnel.finish();
            }
        } catch (MppTaskException e) {
            error = e.error();
        } catch (DuetException e) {
            error = MppError.newBuilder().setMessage(e.getMessage()).setErrorCode(e.code().name()).build();
        } catch (UnsupportedExpressionException e) {
            error = MppError.newBuilder().setMessage("invalid MPP plan: " + e.getMessage()).build();
        } catch (RuntimeException e) {
            LOG.warn("MPP task {} of query {}/{} failed", meta().getTaskId(), meta().getStartTs(), meta().getQueryId(), e);
            error = MppError.newBuilder().setMessage("MPP task failed on learner " + meta().getAddress() + ": " + e).build();
        }
        if (error != null) {
            if (cancellation.reason() != null && error.getErrorCode().isEmpty()) {
                error = MppError.newBuilder().setMessage("Query execution was interrupted: " + cancellation.reason())
                        .setErrorCode(ErrorCode.QUERY_INTERRUPTED.name()).build();
            }
            for (ExchangeTunnel tunnel : tunnels) {
                tunnel.fail(error);
            }
        }
        LOG.info("MPP task {} of query {}/{} {} after {} ms: {} rows sent{}", meta().getTaskId(), meta().getStartTs(),
                meta().getQueryId(), error == null ? "finished" : "failed", (System.nanoTime() - started) / 1_000_000,
                outputRows, error == null ? "" : " (" + error.getMessage() + ")");
        finished.run();
    }

    private void send(VectorSchemaRoot batch) {
        switch (request.getSender().getType()) {
            case PASS_THROUGH -> tunnels.get(0).send(packet(batch));
            case BROADCAST -> {
                MppDataPacket packet = packet(batch);
                for (ExchangeTunnel tunnel : tunnels) {
                    tunnel.send(packet);
                }
            }
            case HASH -> {
                VectorSchemaRoot[] parts = partitioner.split(batch, pipeline.outputTypes(), allocator);
                try {
                    for (int i = 0; i < parts.length; i++) {
                        if (parts[i] != null) {
                            tunnels.get(i).send(packet(parts[i]));
                        }
                    }
                } finally {
                    for (VectorSchemaRoot part : parts) {
                        if (part != null) {
                            part.close();
                        }
                    }
                }
            }
            default -> throw new UnsupportedExpressionException("exchange type " + request.getSender().getType());
        }
    }

    private static MppDataPacket packet(VectorSchemaRoot batch) {
        ByteString bytes = UnsafeByteOperations.unsafeWrap(ArrowIpc.write(batch));
        return MppDataPacket.newBuilder().setArrowIpc(bytes).build();
    }

    /**
     * Stops the task: its next batch, send or wait fails. No interrupt: a scan's file channels would close under it.
     */
    void cancel(String why) {
        cancellation.cancel(why);
    }

    /** Notes that one receiver took its whole stream; true when it was the last. */
    boolean drained() {
        return undrained.decrementAndGet() == 0;
    }

    long heldBytes() {
        return heldBytes.get();
    }
}
