package io.duetdb.client.placement;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.time.Timestamp;
import io.duetdb.proto.placement.ErrorType;
import io.duetdb.proto.placement.PlacementGrpc;
import io.duetdb.proto.placement.RequestHeader;
import io.duetdb.proto.placement.TsoRequest;
import io.duetdb.proto.placement.TsoResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;

/**
 * Merges concurrent timestamp requests into one TSO request on a long-lived stream to the leader, with a
 * few requests in flight at once, as PD's client does. A broken stream or a leader change sends the
 * waiting requests again on a new stream; a request that cannot be served within the request timeout fails.
 */
final class TsoDispatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TsoDispatcher.class);

    /** Where to open a stream: the leader's stub and the header to send, or null while unknown. */
    interface StreamTarget {
        PlacementGrpc.PlacementStub leaderStub(long deadlineNanos);

        RequestHeader header();

        void leaderMoved(String leaderAddress);

        void learnClusterId(long clusterId);
    }

    /** What the TSO requests of this client did since the previous call. */
    TsoStatistics statistics() {
        Histogram latency = batchLatency.getIntervalHistogram();
        return new TsoStatistics(batches.sumThenReset(), timestamps.sumThenReset(), latency);
    }

    private static final class Request {
        final CompletableFuture<Timestamp> future = new CompletableFuture<>();
        final long deadlineNanos;

        Request(long deadlineNanos) {
            this.deadlineNanos = deadlineNanos;
        }
    }

    private final StreamTarget target;
    private final long timeoutNanos;
    private final int maxBatch;
    private final Semaphore inflight;
    private final LinkedBlockingQueue<Request> queue = new LinkedBlockingQueue<>();
    private final ConcurrentLinkedDeque<List<Request>> retries = new ConcurrentLinkedDeque<>();
    private final Thread thread;
    private final Supplier<String> description;
    private final Recorder batchLatency = new Recorder(3);
    private final LongAdder batches = new LongAdder();
    private final LongAdder timestamps = new LongAdder();
    private volatile boolean running = true;
    private Stream stream;

    TsoDispatcher(StreamTarget target, long timeoutNanos, int maxBatch, int maxInflight, Supplier<String> description,
            java.util.concurrent.ThreadFactory threadFactory) {
        this.target = target;
        this.timeoutNanos = timeoutNanos;
        this.maxBatch = maxBatch;
        this.inflight = new Semaphore(maxInflight);
        this.description = description;
        this.thread = threadFactory.newThread(this::run);
        thread.start();
    }

    CompletableFuture<Timestamp> next() {
        Request request = new Request(System.nanoTime() + timeoutNanos);
        if (!running) {
            request.future.completeExceptionally(new DuetException(ErrorCode.PLACEMENT_SERVER_TIMEOUT, "placement client is closed"));
            return request.future;
        }
        queue.add(request);
        return request.future;
    }

    private void run() {
        long backoffMillis = 0;
        while (running) {
            try {
                List<Request> batch = collect();
                if (batch.isEmpty()) {
                    continue;
                }
                if (backoffMillis > 0) {
                    Thread.sleep(backoffMillis);
                }
                inflight.acquire();
                Stream current = currentStream();
                if (current == null || !current.send(batch)) {
                    inflight.release();
                    retries.addFirst(batch);
                    backoffMillis = Math.min(Math.max(backoffMillis * 2, 10), 200);
                } else {
                    backoffMillis = 0;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) {
                LOG.warn("TSO dispatcher error: {}", e.toString());
            }
        }
        failAll(new DuetException(ErrorCode.PLACEMENT_SERVER_TIMEOUT, "placement client is closed"));
    }

    private List<Request> collect() throws InterruptedException {
        List<Request> batch = new ArrayList<>();
        List<Request> retry;
        while (batch.size() < maxBatch && (retry = retries.pollFirst()) != null) {
            batch.addAll(retry);
        }
        if (batch.isEmpty()) {
            Request first = queue.poll(50, TimeUnit.MILLISECONDS);
            if (first == null) {
                return batch;
            }
            batch.add(first);
        }
        queue.drainTo(batch, Math.max(0, maxBatch - batch.size()));
        long now = System.nanoTime();
        batch.removeIf(request -> {
            if (now - request.deadlineNanos > 0) {
                request.future.completeExceptionally(new DuetException(ErrorCode.PLACEMENT_SERVER_TIMEOUT,
                        "no timestamp from the placement driver within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
                                + " ms (" + description.get() + ")"));
                return true;
            }
            return request.future.isDone();
        });
        return batch;
    }

    private Stream currentStream() {
        if (stream != null && !stream.broken) {
            return stream;
        }
        PlacementGrpc.PlacementStub stub = target.leaderStub(System.nanoTime() + Math.min(timeoutNanos, 1_000_000_000L));
        if (stub == null) {
            return null;
        }
        stream = new Stream();
        stream.requests = stub.tso(stream);
        return stream;
    }

    private void failAll(RuntimeException error) {
        List<Request> batch;
        while ((batch = retries.pollFirst()) != null) {
            batch.forEach(request -> request.future.completeExceptionally(error));
        }
        Request request;
        while ((request = queue.poll()) != null) {
            request.future.completeExceptionally(error);
        }
        Stream current = stream;
        if (current != null) {
            current.breakStream(Status.CANCELLED.withDescription("client closed"));
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One TSO stream: batches are answered in the order they were sent. */
    private final class Stream implements StreamObserver<TsoResponse> {
        private final ArrayDeque<List<Request>> pending = new ArrayDeque<>();
        private final ArrayDeque<Long> sentNanos = new ArrayDeque<>();
        private StreamObserver<TsoRequest> requests;
        private volatile boolean broken;

        synchronized boolean send(List<Request> batch) {
            if (broken) {
                return false;
            }
            pending.addLast(batch);
            sentNanos.addLast(System.nanoTime());
            requests.onNext(TsoRequest.newBuilder().setHeader(target.header()).setCount(batch.size()).build());
            return true;
        }

        @Override
        public void onNext(TsoResponse response) {
            List<Request> batch;
            synchronized (this) {
                if (broken) {
                    return;
                }
                if (response.getHeader().hasError() && response.getHeader().getError().getType() != ErrorType.OK) {
                    var error = response.getHeader().getError();
                    if (error.getType() == ErrorType.NOT_LEADER) {
                        target.leaderMoved(error.getLeaderAddress());
                    }
                    LOG.info("TSO stream answered {}: {}; retrying on a new stream", error.getType(), error.getMessage());
                    breakStream(Status.CANCELLED.withDescription("leader changed"));
                    return;
                }
                batch = pending.pollFirst();
                Long sent = sentNanos.pollFirst();
                if (sent != null) {
                    batchLatency.recordValue(Math.max(0, System.nanoTime() - sent) / 1000);
                }
            }
            inflight.release();
            if (batch == null) {
                return;
            }
            target.learnClusterId(response.getHeader().getClusterId());
            long physical = response.getLast().getPhysical();
            long firstLogical = response.getLast().getLogical() - response.getCount() + 1;
            if (response.getCount() != batch.size() || firstLogical < 0) {
                var error = new DuetException(ErrorCode.UNKNOWN_ERROR,
                        "TSO answered " + response.getCount() + " timestamps for a request of " + batch.size());
                batch.forEach(request -> request.future.completeExceptionally(error));
                return;
            }
            batches.increment();
            timestamps.add(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).future.complete(new Timestamp(physical, firstLogical + i));
            }
        }

        @Override
        public void onError(Throwable error) {
            synchronized (this) {
                if (broken) {
                    return;
                }
                LOG.info("TSO stream failed ({}); retrying on a new stream", Status.fromThrowable(error));
                target.leaderMoved("");
                breakStream(null);
            }
        }

        @Override
        public void onCompleted() {
            onError(Status.UNAVAILABLE.withDescription("server closed the TSO stream").asRuntimeException());
        }

        /** Sends every unanswered batch again on the next stream. */
        synchronized void breakStream(Status cancel) {
            if (broken) {
                return;
            }
            broken = true;
            List<Request> batch;
            while ((batch = pending.pollLast()) != null) {
                retries.addFirst(batch);
                inflight.release();
            }
            sentNanos.clear();
            if (cancel != null) {
                try {
                    requests.onError(cancel.asRuntimeException());
                } catch (RuntimeException e) {
                    // Already closed.
                }
            }
        }
    }
}
