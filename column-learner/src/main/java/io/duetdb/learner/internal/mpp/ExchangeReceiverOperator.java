package io.duetdb.learner.internal.mpp;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

import io.duetdb.compute.operator.BatchOperator;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.mpp.EstablishConnectionRequest;
import io.duetdb.proto.mpp.ExchangeReceiver;
import io.duetdb.proto.mpp.MppDataPacket;
import io.duetdb.proto.mpp.MppGrpc;
import io.duetdb.proto.mpp.TaskMeta;
import io.grpc.Channel;
import io.grpc.Context;
import io.grpc.StatusRuntimeException;

/**
 * The batches other tasks send to this one: one connection per source task, each read on its own thread into a
 * small queue, handed out as they come (in no particular order across sources). The first error of any source
 * stops the task; closing it cancels the connections, so the sources stop sending.
 */
final class ExchangeReceiverOperator implements BatchOperator {
    private static final Object END = new Object();

    private final List<FieldType> types;
    private final BufferAllocator allocator;
    private final BlockingQueue<Object> arrived;
    // Not the current context: that is the dispatch call's, cancelled as soon as it returns.
    private final Context.CancellableContext calls = Context.ROOT.withCancellation();
    private final long deadlineNanos;
    private final Cancellation cancellation;
    private int openSources;
    private ArrowStreamReader reader;

    ExchangeReceiverOperator(ExchangeReceiver receiver, TaskMeta self, Function<String, Channel> channels,
            Executor threads, BufferAllocator allocator, long deadlineNanos, Cancellation cancellation) {
        this.cancellation = requireNonNull(cancellation, "cancellation is null");
        this.types = List.copyOf(receiver.getTypesList());
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.deadlineNanos = deadlineNanos;
        this.arrived = new ArrayBlockingQueue<>(Math.max(4, 2 * receiver.getSourcesCount()) + 1);
        this.openSources = receiver.getSourcesCount();
        for (TaskMeta source : receiver.getSourcesList()) {
            Channel channel = channels.apply(source.getAddress());
            EstablishConnectionRequest request = EstablishConnectionRequest.newBuilder().setSender(source)
                    .setReceiver(self).build();
            threads.execute(calls.wrap(() -> read(channel, request, source)));
        }
    }

    private void read(Channel channel, EstablishConnectionRequest request, TaskMeta source) {
        try {
            Iterator<MppDataPacket> packets = MppGrpc.newBlockingStub(channel).establishConnection(request);
            while (packets.hasNext()) {
                MppDataPacket packet = packets.next();
                if (packet.hasError()) {
                    put(new MppTaskException(packet.getError()));
                    return;
                }
                if (packet.getArrowIpc().isEmpty()) {
                    put(END);
                    return;
                }
                put(packet.getArrowIpc().toByteArray());
            }
            put(MppTaskException.of("task " + source.getTaskId() + " at " + source.getAddress()
                    + " ended its stream without finishing it"));
        } catch (StatusRuntimeException e) {
            if (!calls.isCancelled()) {
                put(MppTaskException.of("cannot read from task " + source.getTaskId() + " at " + source.getAddress()
                        + ": " + e.getStatus()));
            }
        }
    }

    private void put(Object item) {
        try {
            while (!calls.isCancelled() && !arrived.offer(item, 50, TimeUnit.MILLISECONDS)) {
                // The task is slower than its sources: they wait here, and their senders behind them.
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public List<FieldType> outputTypes() {
        return types;
    }

    @Override
    public VectorSchemaRoot next() {
        closeReader();
        cancellation.check();
        while (openSources > 0) {
            Object item;
            try {
                item = arrived.poll(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw MppTaskException.of("the task was interrupted while receiving");
            }
            if (item == null) {
                cancellation.check();
                if (System.nanoTime() - deadlineNanos > 0) {
                    throw MppTaskException.of("the task's sources did not finish in time");
                }
                continue;
            }
            if (item == END) {
                openSources--;
                continue;
            }
            if (item instanceof MppTaskException failure) {
                throw failure;
            }
            VectorSchemaRoot batch = open((byte[]) item);
            if (batch != null && batch.getRowCount() > 0) {
                return batch;
            }
            closeReader();
        }
        return null;
    }

    private VectorSchemaRoot open(byte[] stream) {
        reader = new ArrowStreamReader(new ByteArrayInputStream(stream), allocator);
        try {
            return reader.loadNextBatch() ? reader.getVectorSchemaRoot() : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void closeReader() {
        if (reader != null) {
            try {
                reader.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            reader = null;
        }
    }

    @Override
    public void close() {
        calls.cancel(null);
        closeReader();
        List<Object> dropped = new ArrayList<>();
        arrived.drainTo(dropped);
    }
}
