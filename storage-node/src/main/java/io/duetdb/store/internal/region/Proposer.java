package io.duetdb.store.internal.region;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import com.google.protobuf.InvalidProtocolBufferException;

import io.duetdb.common.region.RegionErrors;
import io.duetdb.proto.kv.RegionError;
import io.duetdb.proto.raftcmd.CommandResult;
import io.duetdb.proto.raftcmd.RaftCommand;
import io.duetdb.proto.raftcmd.RaftEntry;
import io.duetdb.proto.raftcmd.RaftEntryResult;
import io.duetdb.raft.NotLeaderException;
import io.duetdb.raft.RaftGroupHandle;
import io.duetdb.raft.RaftUnavailableException;

/**
 * Groups the commands that reach a region leader at the same time into one Raft entry, with a few entries in
 * flight at once (group commit): Ratis commits a few thousand entries a second here, so throughput comes from
 * many commands per entry. When idle a command goes alone, so latency stays one round trip.
 */
public final class Proposer {
    /** How big an entry may get and how many may be in flight. */
    public record Limits(int maxCommands, long maxBytes, int maxInflight) {
        public Limits {
            if (maxCommands < 1 || maxBytes < 1 || maxInflight < 1) {
                throw new IllegalArgumentException("proposal limits must be positive");
            }
        }
    }

    /** Counts what happens, for metrics. */
    public interface Observer {
        void proposed(int commands, long bytes);
    }

    private record Pending(RaftCommand command, int size, CompletableFuture<CommandResult> result) {
    }

    private final RaftGroupHandle handle;
    private final LeaderLease lease;
    private final Executor executor;
    private final Limits limits;
    private final Observer observer;
    private final Function<String, RegionError> notLeaderError;
    private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inflight = new AtomicInteger();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicLong failedEntries = new AtomicLong();

    public Proposer(RaftGroupHandle handle, LeaderLease lease, Executor executor, Limits limits, Observer observer,
            Function<String, RegionError> notLeaderError) {
        this.handle = requireNonNull(handle, "handle is null");
        this.lease = requireNonNull(lease, "lease is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.observer = requireNonNull(observer, "observer is null");
        this.notLeaderError = requireNonNull(notLeaderError, "notLeaderError is null");
    }

    /** Completes with the command's result once its entry is committed and applied on this replica. */
    public CompletableFuture<CommandResult> submit(RaftCommand command) {
        Pending pending = new Pending(command, command.getSerializedSize(), new CompletableFuture<>());
        queue.add(pending);
        schedule();
        return pending.result();
    }

    private void schedule() {
        if (!queue.isEmpty() && inflight.get() < limits.maxInflight() && draining.compareAndSet(false, true)) {
            executor.execute(this::drain);
        }
    }

    private void drain() {
        try {
            while (true) {
                int current = inflight.get();
                if (current >= limits.maxInflight() || queue.isEmpty()) {
                    break;
                }
                if (!inflight.compareAndSet(current, current + 1)) {
                    continue;
                }
                List<Pending> batch = take();
                if (batch.isEmpty()) {
                    inflight.decrementAndGet();
                    break;
                }
                send(batch);
            }
        } finally {
            draining.set(false);
        }
        schedule();
    }

    private List<Pending> take() {
        List<Pending> batch = new ArrayList<>();
        long bytes = 0;
        Pending next;
        while (batch.size() < limits.maxCommands() && (next = queue.peek()) != null) {
            if (!batch.isEmpty() && bytes + next.size() > limits.maxBytes()) {
                break;
            }
            queue.poll();
            batch.add(next);
            bytes += next.size();
        }
        return batch;
    }

    private void send(List<Pending> batch) {
        RaftEntry.Builder entry = RaftEntry.newBuilder();
        long bytes = 0;
        for (Pending pending : batch) {
            entry.addCommands(pending.command());
            bytes += pending.size();
        }
        observer.proposed(batch.size(), bytes);
        long started = System.nanoTime();
        long term;
        try {
            term = handle.currentTerm();
        } catch (RuntimeException e) {
            finish(batch, null, e);
            return;
        }
        handle.propose(entry.build().toByteArray()).whenComplete((reply, error) -> {
            if (error == null) {
                lease.renew(term, started);
            }
            finish(batch, reply, error);
        });
    }

    private void finish(List<Pending> batch, byte[] reply, Throwable error) {
        inflight.decrementAndGet();
        try {
            if (error != null) {
                failedEntries.incrementAndGet();
                CommandResult failure = CommandResult.newBuilder().setRegionError(toRegionError(error)).build();
                batch.forEach(pending -> pending.result().complete(failure));
                return;
            }
            RaftEntryResult results;
            try {
                results = RaftEntryResult.parseFrom(reply);
            } catch (InvalidProtocolBufferException e) {
                batch.forEach(pending -> pending.result().completeExceptionally(e));
                return;
            }
            for (int i = 0; i < batch.size(); i++) {
                CommandResult result = i < results.getResultsCount() ? results.getResults(i)
                        : CommandResult.newBuilder().setError("entry applied without a result (replayed?)").build();
                batch.get(i).result().complete(result);
            }
        } finally {
            schedule();
        }
    }

    private RegionError toRegionError(Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof NotLeaderException notLeader) {
            lease.revoke();
            return notLeaderError.apply(notLeader.leaderId().orElse(null));
        }
        if (cause instanceof RaftUnavailableException unavailable) {
            return RegionErrors.serverIsBusy("Raft: " + unavailable.getMessage(), 50);
        }
        return RegionErrors.serverIsBusy(String.valueOf(cause), 100);
    }

    /**
     * How many entries failed to propose so far: such an entry may still be in the log (a timeout) or not (no
     * leader), so until a later entry commits nothing can say which log index bounds it.
     */
    public long failedEntries() {
        return failedEntries.get();
    }

    public int queued() {
        return queue.size();
    }

    public int inflight() {
        return inflight.get();
    }
}
