package io.duetdb.learner.internal.mpp;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.operator.BatchOperator;
import io.duetdb.compute.operator.FragmentPipeline;
import io.duetdb.learner.internal.LearnerNode;
import io.duetdb.learner.internal.metrics.LearnerMetrics;
import io.duetdb.proto.coprocessor.Selection;
import io.duetdb.proto.mpp.DispatchTaskRequest;
import io.duetdb.proto.mpp.DispatchTaskResponse;
import io.duetdb.proto.mpp.ExchangeReceiver;
import io.duetdb.proto.mpp.MppError;
import io.duetdb.proto.mpp.MppTableScan;
import io.duetdb.proto.mpp.TaskMeta;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;

/**
 * The MPP tasks on this learner: dispatch builds a task's operators and starts it on a thread of its own; a
 * receiver's connection waits (a while) for its source task to be dispatched, since the coordinator dispatches tasks
 * in any order; a query's tasks are cancelled together. A task is forgotten once it finished and its receivers took
 * their streams, or when its time is up.
 */
public final class MppTaskManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MppTaskManager.class);
    static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);
    private static final long UNLIMITED = Long.MAX_VALUE;

    record TaskKey(long startTs, long queryId, long taskId) {
        static TaskKey of(TaskMeta meta) {
            return new TaskKey(meta.getStartTs(), meta.getQueryId(), meta.getTaskId());
        }
    }

    private record Registered(MppTask task, long deadlineNanos) {
    }

    private final LearnerNode node;
    private final BufferAllocator allocator;
    private final ExecutorService threads;
    private final Duration readWaitTimeout;
    private final LearnerMetrics metrics;
    private final Map<TaskKey, CompletableFuture<Registered>> tasks = new ConcurrentHashMap<>();
    private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();
    /** Tasks whose operators are still running (cancelled ones included, until they stop). */
    private final AtomicInteger running = new AtomicInteger();
    /** Queries cancelled here, so that tasks dispatched after the cancel do not start (by start ts and query id). */
    private final Map<TaskKey, Long> cancelledQueries = new ConcurrentHashMap<>();

    public MppTaskManager(LearnerNode node, BufferAllocator allocator, ExecutorService threads, Duration readWaitTimeout,
            LearnerMetrics metrics) {
        this.node = requireNonNull(node, "node is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.threads = requireNonNull(threads, "threads is null");
        this.readWaitTimeout = requireNonNull(readWaitTimeout, "readWaitTimeout is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    public DispatchTaskResponse dispatch(DispatchTaskRequest request) {
        TaskMeta meta = request.getMeta();
        TaskKey key = TaskKey.of(meta);
        if (cancelledQueries.containsKey(new TaskKey(meta.getStartTs(), meta.getQueryId(), 0))) {
            return refused("query " + meta.getQueryId() + " was cancelled", ErrorCode.QUERY_INTERRUPTED.name());
        }
        Duration timeout = request.getTimeoutSeconds() == 0 ? DEFAULT_TIMEOUT : Duration.ofSeconds(request.getTimeoutSeconds());
        long deadline = System.nanoTime() + timeout.toNanos();
        long quota = request.getMemoryQuota() == 0 ? UNLIMITED : request.getMemoryQuota();
        AtomicLong held = new AtomicLong();
        LongConsumer memory = bytes -> {
            long now = held.addAndGet(bytes);
            if (bytes > 0 && now > quota) {
                throw new DuetException(ErrorCode.MEMORY_QUOTA_EXCEEDED, "Your query has been cancelled due to exceeding"
                        + " the allowed memory limit for a single SQL query: an MPP task on learner " + meta.getAddress()
                        + " reached " + now + " bytes (quota " + quota + "). Please try narrowing your query scope or"
                        + " increase the tidb_mem_quota_query limit and try again.");
            }
        };
        Cancellation cancellation = new Cancellation();
        BufferAllocator taskAllocator = allocator.newChildAllocator("mpp-task-" + meta.getQueryId() + "-"
                + meta.getTaskId(), 0, allocator.getLimit());
        MppTask task;
        try {
            BatchOperator pipeline = FragmentPipeline.build(request.getRoot(), new FragmentPipeline.Leaves() {
                @Override
                public BatchOperator tableScan(MppTableScan scan, Selection selectionAbove) {
                    return new MppRegionScan(node, scan, selectionAbove, meta.getStartTs(), readWaitTimeout,
                            taskAllocator, cancellation);
                }

                @Override
                public BatchOperator receiver(ExchangeReceiver receiver) {
                    return new ExchangeReceiverOperator(receiver, meta, MppTaskManager.this::channel, threads,
                            taskAllocator, deadline, cancellation);
                }
            }, taskAllocator, memory, cancellation::check);
            try {
                task = new MppTask(request, pipeline, taskAllocator, held, deadline, cancellation, () -> finished(key));
            } catch (RuntimeException e) {
                pipeline.close();
                throw e;
            }
        } catch (UnsupportedExpressionException e) {
            taskAllocator.close();
            metrics.mppTasks.labelValues("refused").inc();
            return refused("invalid MPP plan: " + e.getMessage(), "");
        } catch (RuntimeException e) {
            taskAllocator.close();
            metrics.mppTasks.labelValues("refused").inc();
            return refused("cannot start MPP task: " + e.getMessage(), "");
        }
        tasks.computeIfAbsent(key, k -> new CompletableFuture<>()).complete(new Registered(task, deadline));
        LOG.info("MPP task {} of query {}/{} dispatched: {} receiver(s), exchange {}", meta.getTaskId(),
                meta.getStartTs(), meta.getQueryId(), request.getSender().getTargetsCount(), request.getSender().getType());
        metrics.mppTasks.labelValues("dispatched").inc();
        running.incrementAndGet();
        threads.execute(task);
        return DispatchTaskResponse.getDefaultInstance();
    }

    private static DispatchTaskResponse refused(String message, String errorCode) {
        return DispatchTaskResponse.newBuilder().setError(MppError.newBuilder().setMessage(message)
                .setErrorCode(errorCode)).build();
    }

    private void finished(TaskKey key) {
        running.decrementAndGet();
        // Receivers still connect to a finished task to take its last batches: it stays until they are done or its
        // time is up (checked by the next dispatch's sweep).
        sweep();
    }

    /** The tunnel from a task to a receiver, once the task is dispatched (null when it is not within the wait). */
    CompletableFuture<ExchangeTunnel> tunnel(TaskMeta sender, TaskMeta receiver, Duration wait) {
        CompletableFuture<Registered> registered = tasks.computeIfAbsent(TaskKey.of(sender), k -> new CompletableFuture<>());
        return registered.copy().orTimeout(wait.toMillis(), TimeUnit.MILLISECONDS).thenApply(entry -> {
            ExchangeTunnel tunnel = entry.task().tunnelTo(receiver.getTaskId());
            if (tunnel == null) {
                throw new DuetException(ErrorCode.INVALID_ARGUMENT, "task " + sender.getTaskId() + " does not send to task "
                        + receiver.getTaskId());
            }
            return tunnel;
        });
    }

    /** Stops every task of the query here; answers how many there were. */
    public int cancel(long startTs, long queryId, String reason) {
        cancelledQueries.put(new TaskKey(startTs, queryId, 0), System.nanoTime());
        int cancelled = 0;
        for (Map.Entry<TaskKey, CompletableFuture<Registered>> entry : tasks.entrySet()) {
            TaskKey key = entry.getKey();
            if (key.startTs() == startTs && key.queryId() == queryId) {
                Registered registered = entry.getValue().getNow(null);
                if (registered != null) {
                    registered.task().cancel(reason);
                    cancelled++;
                }
                tasks.remove(key);
            }
        }
        if (cancelled > 0) {
            LOG.info("MPP query {}/{}: {} task(s) cancelled ({})", startTs, queryId, cancelled, reason);
            metrics.mppTasks.labelValues("cancelled").inc(cancelled);
        }
        return cancelled;
    }

    /** Forgets tasks and cancel marks whose time is up. */
    private void sweep() {
        long now = System.nanoTime();
        tasks.entrySet().removeIf(entry -> {
            Registered registered = entry.getValue().getNow(null);
            return registered != null && now - registered.deadlineNanos() > 0;
        });
        cancelledQueries.entrySet().removeIf(entry -> now - entry.getValue() > DEFAULT_TIMEOUT.toNanos());
    }

    /** Forgets a task once its last receiver took its whole stream. */
    void connectionDone(TaskMeta sender) {
        CompletableFuture<Registered> registered = tasks.get(TaskKey.of(sender));
        Registered entry = registered == null ? null : registered.getNow(null);
        if (entry != null && entry.task().drained()) {
            tasks.remove(TaskKey.of(sender));
        }
    }

    /** Tasks whose operators are still running. */
    public int runningTasks() {
        return running.get();
    }

    Channel channel(String address) {
        return channels.computeIfAbsent(address, a -> {
            int colon = a.lastIndexOf(':');
            return NettyChannelBuilder.forAddress(a.substring(0, colon), Integer.parseInt(a.substring(colon + 1)))
                    .usePlaintext().maxInboundMessageSize(64 << 20).build();
        });
    }

    ExecutorService threads() {
        return threads;
    }

    @Override
    public void close() {
        for (CompletableFuture<Registered> registered : tasks.values()) {
            Registered entry = registered.getNow(null);
            if (entry != null) {
                entry.task().cancel("the learner is shutting down");
            }
        }
        tasks.clear();
        channels.values().forEach(ManagedChannel::shutdownNow);
        channels.clear();
    }
}
