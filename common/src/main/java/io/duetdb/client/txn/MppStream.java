package io.duetdb.client.txn;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.region.RegionCache;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.proto.mpp.EstablishConnectionRequest;
import io.duetdb.proto.mpp.MppDataPacket;
import io.duetdb.proto.mpp.MppError;
import io.duetdb.proto.mpp.MppExecutor;
import io.duetdb.proto.mpp.MppFragment;
import io.duetdb.proto.mpp.MppGrpc;
import io.duetdb.proto.mpp.MppQuery;
import io.duetdb.proto.mpp.TaskMeta;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;

/**
 * The SQL server's end of an MPP query: dispatches the query's tasks, connects to the root fragment's tasks and hands
 * out their Arrow batches as they come. A lock or a moved region met by any task before a batch was handed out
 * cancels the query, resolves the lock (or refreshes the regions) and runs it again; any other error cancels the query
 * and is thrown. Closing it early cancels the tasks on every learner.
 */
final class MppStream implements CoprocessorStream {
    private static final Logger LOG = LoggerFactory.getLogger(MppStream.class);
    private static final int MAX_ATTEMPTS = 10;
    private static final Object END = new Object();

    private record Item(int attempt, int source, Object payload) {
    }

    private final MppCoordinator coordinator;
    private final LockResolver resolver;
    private final RegionCache regions;
    private final MppQuery query;
    private final long startTs;
    private final long memoryQuota;
    private final long deadlineNanos;
    private final Runnable checkpoint;
    private final BlockingQueue<Item> arrived = new LinkedBlockingQueue<>();
    private final List<ClientCallStreamObserver<EstablishConnectionRequest>> calls = new ArrayList<>();
    private MppCoordinator.Dispatched dispatched;
    private int openSources;
    private int attempts;
    private boolean handedOut;
    private boolean done;
    private long batches;

    MppStream(MppCoordinator coordinator, LockResolver resolver, RegionCache regions, MppQuery query, long startTs,
            long memoryQuota, long deadlineNanos, Runnable checkpoint) {
        this.checkpoint = requireNonNull(checkpoint, "checkpoint is null");
        this.coordinator = requireNonNull(coordinator, "coordinator is null");
        this.resolver = requireNonNull(resolver, "resolver is null");
        this.regions = requireNonNull(regions, "regions is null");
        this.query = requireNonNull(query, "query is null");
        this.startTs = startTs;
        this.memoryQuota = memoryQuota;
        this.deadlineNanos = deadlineNanos;
        start();
    }

    private void start() {
        attempts++;
        arrived.clear();
        calls.clear();
        long remainingSeconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(deadlineNanos - System.nanoTime()));
        dispatched = coordinator.dispatch(query, startTs, coordinator.nextQueryId(), memoryQuota,
                (int) Math.min(Integer.MAX_VALUE, remainingSeconds));
        openSources = dispatched.rootTasks().size();
        TaskMeta server = TaskMeta.newBuilder().setStartTs(startTs).setQueryId(dispatched.queryId()).setTaskId(-1).build();
        for (int i = 0; i < dispatched.rootTasks().size(); i++) {
            TaskMeta task = dispatched.rootTasks().get(i);
            int source = i;
            int attempt = attempts;
            EstablishConnectionRequest request = EstablishConnectionRequest.newBuilder().setSender(task).setReceiver(server)
                    .build();
            MppGrpc.newStub(coordinator.channel(task.getAddress())).establishConnection(request,
                    new ClientResponseObserver<EstablishConnectionRequest, MppDataPacket>() {
                        @Override
                        public void beforeStart(ClientCallStreamObserver<EstablishConnectionRequest> call) {
                            call.disableAutoRequestWithInitial(1);
                            calls.add(call);
                        }

                        @Override
                        public void onNext(MppDataPacket packet) {
                            if (packet.hasError()) {
                                arrived.add(new Item(attempt, source, packet.getError()));
                            } else if (packet.getArrowIpc().isEmpty()) {
                                arrived.add(new Item(attempt, source, END));
                            } else {
                                arrived.add(new Item(attempt, source, packet.getArrowIpc().toByteArray()));
                            }
                        }

                        @Override
                        public void onError(Throwable failure) {
                            arrived.add(new Item(attempt, source, MppError.newBuilder().setMessage("the connection to MPP task "
                                    + task.getTaskId() + " at " + task.getAddress() + " failed: " + failure.getMessage())
                                    .build()));
                        }

                        @Override
                        public void onCompleted() {
                            // The last packet said how the stream ended.
                        }
                    });
        }
    }

    @Override
    public byte[] next() {
        while (!done) {
            if (openSources == 0) {
                done = true;
                return null;
            }
            Item item;
            try {
                item = arrived.poll(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
                throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
            }
            if (item == null) {
                try {
                    checkpoint.run();
                } catch (RuntimeException e) {
                    close();
                    throw e;
                }
                if (System.nanoTime() - deadlineNanos > 0) {
                    close();
                    throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "the MPP query did not finish in time");
                }
                continue;
            }
            if (item.attempt() != attempts) {
                // From a run of the query cancelled before this one.
                continue;
            }
            if (item.payload() == END) {
                openSources--;
                continue;
            }
            if (item.payload() instanceof MppError error) {
                failed(error);
                continue;
            }
            calls.get(item.source()).request(1);
            handedOut = true;
            batches++;
            return (byte[]) item.payload();
        }
        return null;
    }

    /** Runs the query again after a lock or a moved region, while nothing was handed out; else throws. */
    private void failed(MppError error) {
        cancelCalls();
        coordinator.cancel(dispatched, "a task failed: " + error.getMessage());
        boolean retryable = error.hasLocked() || error.getRetryRegions();
        if (!retryable || handedOut || attempts >= MAX_ATTEMPTS || System.nanoTime() - deadlineNanos > 0) {
            done = true;
            throw new DuetException(MppCoordinator.errorCode(error.getErrorCode()), error.getMessage());
        }
        LOG.info("MPP query {}/{}: {}; running it again (attempt {})", startTs, dispatched.queryId(), error.getMessage(),
                attempts + 1);
        if (error.hasLocked()) {
            long wait = resolver.resolve(List.of(error.getLocked()));
            sleep(Math.min(Math.max(wait, 0), 100));
        } else {
            for (MppFragment fragment : query.getFragmentsList()) {
                invalidateScannedRegions(fragment.getRoot());
            }
            sleep(20L * attempts);
        }
        start();
    }

    private void invalidateScannedRegions(MppExecutor executor) {
        if (executor.hasTableScan()) {
            byte[] start = executor.getTableScan().getRange().getStart().toByteArray();
            byte[] end = executor.getTableScan().getRange().getEnd().toByteArray();
            for (RegionCache.CachedRegion cached : regions.locateRange(start, end)) {
                regions.invalidate(cached.region().getId());
            }
        }
        executor.getChildrenList().forEach(this::invalidateScannedRegions);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(Math.max(1, millis));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
        }
    }

    private void cancelCalls() {
        for (ClientCallStreamObserver<EstablishConnectionRequest> call : calls) {
            call.cancel("the MPP query ended", null);
        }
        calls.clear();
    }

    @Override
    public CoprocessorSummary summary() {
        return new CoprocessorSummary(dispatched.rootTasks().size(), 0, 0, 0, List.of(), List.of());
    }

    @Override
    public void close() {
        if (!done) {
            done = true;
            cancelCalls();
            coordinator.cancel(dispatched, "the SQL server closed the query");
        }
    }
}
