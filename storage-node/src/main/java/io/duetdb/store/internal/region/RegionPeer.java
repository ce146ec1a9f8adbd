package io.duetdb.store.internal.region;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import com.google.protobuf.ByteString;

import io.duetdb.common.region.RegionErrors;
import io.duetdb.common.region.StorePeers;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.raftcmd.CommandResult;
import io.duetdb.proto.raftcmd.RaftCommand;
import io.duetdb.proto.raftcmd.ResolvedTs;
import io.duetdb.proto.store.RegionResolvedTs;
import io.duetdb.raft.RaftGroupHandle;
import io.duetdb.store.internal.proto.RegionLocalState;
import io.duetdb.store.internal.txn.PessimisticLockTable;

/**
 * One region replica on this store at run time: its state machine, its Raft group, the proposer that
 * batches its writes, and the lease its leader reads under.
 */
public final class RegionPeer {
    private final long storeId;
    private final RegionStateMachine stateMachine;
    private final LeaderLease lease;
    private volatile RaftGroupHandle handle;
    private volatile Proposer proposer;
    /** A scheduling step is being carried out (one at a time). */
    public final AtomicBoolean operatorRunning = new AtomicBoolean();
    /** The Raft configuration is being moved to match the region's membership record. */
    public final AtomicBoolean reconciling = new AtomicBoolean();
    /** Something placement should hear about soon (leadership, epoch). */
    public final AtomicBoolean heartbeatDue = new AtomicBoolean(true);
    private volatile long lastHeartbeatNanos;
    private volatile long createdNanos = System.nanoTime();
    private final PessimisticLockTable pessimisticLocks = new PessimisticLockTable();

    public RegionPeer(long storeId, RegionStateMachine stateMachine, LeaderLease lease) {
        this.storeId = storeId;
        this.stateMachine = requireNonNull(stateMachine, "stateMachine is null");
        this.lease = requireNonNull(lease, "lease is null");
    }

    public void attach(RaftGroupHandle groupHandle, Proposer groupProposer) {
        this.handle = requireNonNull(groupHandle, "groupHandle is null");
        this.proposer = requireNonNull(groupProposer, "groupProposer is null");
    }

    public boolean isAttached() {
        return handle != null;
    }

    public long regionId() {
        return stateMachine.regionId();
    }

    public RegionStateMachine stateMachine() {
        return stateMachine;
    }

    /** The region, or null while this replica waits for its first snapshot. */
    public Region region() {
        return stateMachine.region();
    }

    public RegionLocalState state() {
        return stateMachine.state();
    }

    public RaftGroupHandle handle() {
        return handle;
    }

    public LeaderLease lease() {
        return lease;
    }

    public long storeId() {
        return storeId;
    }

    public boolean isLeaderReady() {
        RaftGroupHandle current = handle;
        try {
            return current != null && current.isLeaderReady();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The peer believed to lead, from Raft's view and the region's membership, if known. */
    public Optional<Peer> leaderPeer() {
        RaftGroupHandle current = handle;
        Region region = region();
        if (current == null || region == null) {
            return Optional.empty();
        }
        try {
            return current.leaderId().map(StorePeers::storeIdOf)
                    .flatMap(leaderStore -> region.getPeersList().stream()
                            .filter(peer -> peer.getStoreId() == leaderStore).findFirst());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The current Raft term, or -1 when the group is not running. */
    public long currentTerm() {
        RaftGroupHandle current = handle;
        try {
            return current == null ? -1 : current.currentTerm();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** This replica's in-memory pessimistic locks (while it leads). */
    public PessimisticLockTable pessimisticLocks() {
        return pessimisticLocks;
    }

    public Optional<Peer> selfPeer() {
        Region region = region();
        return region == null ? Optional.empty()
                : region.getPeersList().stream().filter(peer -> peer.getStoreId() == storeId).findFirst();
    }

    /**
     * The newest timestamp of an MVCC write record (a commit, a one-phase commit, a rollback, an import) proposed
     * through this replica, 0 when none: garbage collection skips a region that wrote nothing since its last round.
     */
    public long lastWriteTs() {
        return lastWriteTs;
    }

    /** Proposes a command through this replica (which must lead). */
    public CompletableFuture<CommandResult> propose(RaftCommand command) {
        long writeTs = switch (command.getCommandCase()) {
            case COMMIT -> command.getCommit().getCommitTs();
            case ROLLBACK -> command.getRollback().getStartTs();
            case PREWRITE -> command.getPrewrite().getOnePcCommitTs();
            case TXN_IMPORT -> command.getTxnImport().getCommitTs();
            default -> 0;
        };
        if (writeTs > 0) {
            switch (command.getCommandCase()) {
                case COMMIT -> writtenKeys.record(command.getCommit().getKeysList(), writeTs);
                case ROLLBACK -> writtenKeys.record(command.getRollback().getKeysList(), writeTs);
                case TXN_IMPORT -> writtenKeys.record(command.getTxnImport().getPairsList().stream()
                        .map(pair -> pair.getKey()).toList(), writeTs);
                default -> writtenKeys.record(command.getPrewrite().getMutationsList().stream()
                        .map(mutation -> mutation.getKey()).toList(), writeTs);
            }
        }
        if (writeTs > lastWriteTs) {
            lastWriteTs = writeTs;
        }
        Proposer current = proposer;
        if (current == null) {
            return CompletableFuture.completedFuture(CommandResult.newBuilder()
                    .setRegionError(RegionErrors.serverIsBusy("region " + regionId() + " is starting", 50)).build());
        }
        synchronized (this) {
            CompletableFuture<CommandResult> result = current.submit(command);
            lastProposal = result;
            return result;
        }
    }

    /** Completes once every command proposed here before this call has applied or failed. */
    public synchronized CompletableFuture<?> proposedSoFar() {
        return lastProposal.handle((result, error) -> null);
    }

    private volatile long lastWriteTs;
    private final WrittenKeys writtenKeys = new WrittenKeys();
    /** The highest timestamp this replica proposed as resolved (its queue order is the log's order). */
    private long resolvedTsProposed;
    /** The last command proposed here: once it has applied, every command proposed before it has too. */
    private CompletableFuture<CommandResult> lastProposal = CompletableFuture.completedFuture(null);
    /** The proposer and its failure count when a ResolvedTs entry last committed through it. */
    private Proposer settledProposer;
    private long settledFailures;

    /**
     * Proposes that no transaction not yet committed or prewritten here commits at or below {@code ts}, a
     * timestamp taken before this call (a {@code ResolvedTs} command, for replicas that read without the leader).
     */
    public CompletableFuture<CommandResult> proposeResolvedTs(long ts) {
        Region current = region();
        if (current == null) {
            return CompletableFuture.completedFuture(CommandResult.newBuilder()
                    .setRegionError(RegionErrors.regionNotFound(regionId())).build());
        }
        synchronized (this) {
            resolvedTsProposed = Math.max(resolvedTsProposed, ts);
            Proposer through = proposer;
            long failures = through == null ? 0 : through.failedEntries();
            return propose(RaftCommand.newBuilder().setEpoch(current.getEpoch())
                    .setResolvedTs(ResolvedTs.newBuilder().setTs(ts)).build())
                    .whenComplete((result, error) -> {
                        if (error == null && through != null && through.failedEntries() == failures) {
                            settled(through, failures);
                        }
                    });
        }
    }

    private synchronized void settled(Proposer through, long failures) {
        settledProposer = through;
        settledFailures = failures;
    }

    /**
     * The same promise as {@link #proposeResolvedTs} without a log entry, for a replica that has applied this
     * leader's log up to the returned index (TiKV's resolved-ts advance outside the log): the promise holds from
     * the moment this call fences one-phase commits at or below {@code ts}, and every command proposed before it
     * lies at or below that index once applied. Empty when the lease has lapsed (another leader may exist, whose
     * commits this fence does not hold back) or when an entry failed since the last ResolvedTs entry committed
     * (it may still sit in the log above any index known now): the caller proposes through the log instead.
     */
    public Optional<CompletableFuture<RegionResolvedTs>> fenceResolvedTs(long ts) {
        Region current = region();
        long term = currentTerm();
        if (current == null || term < 0 || !lease.isValid(term, System.nanoTime())) {
            return Optional.empty();
        }
        CompletableFuture<CommandResult> barrier;
        Proposer through;
        long failures;
        synchronized (this) {
            through = proposer;
            failures = settledFailures;
            if (through == null || through != settledProposer || through.failedEntries() != failures) {
                return Optional.empty();
            }
            resolvedTsProposed = Math.max(resolvedTsProposed, ts);
            barrier = lastProposal;
        }
        return Optional.of(barrier.handle((result, error) -> {
            if (error != null || through.failedEntries() != failures || currentTerm() != term) {
                return null;
            }
            return RegionResolvedTs.newBuilder().setRegionId(regionId()).setEpoch(current.getEpoch()).setTs(ts)
                    .setAppliedIndex(stateMachine.applied().index()).build();
        }));
    }

    /**
     * Proposes a one-phase commit at its commit timestamp, taken while this replica led in {@code term}, unless a
     * resolved timestamp at or above it has been proposed since, or another term began (whose leader may have):
     * the commit would land below what replicas already read without the leader. Empty when refused; the caller
     * takes a new timestamp.
     */
    public Optional<CompletableFuture<CommandResult>> proposeOnePhaseCommit(RaftCommand command, long term) {
        long commitTs = command.getPrewrite().getOnePcCommitTs();
        synchronized (this) {
            if (commitTs <= resolvedTsProposed || currentTerm() != term) {
                return Optional.empty();
            }
            return Optional.of(propose(command));
        }
    }

    /** The keys of write records proposed through this replica since garbage collection last took them. */
    public WrittenKeys writtenKeys() {
        return writtenKeys;
    }

    /**
     * Notes a write record found in the region (by a garbage collection scan) whose versions are not all below the
     * safe point yet, as if proposed here: the next rounds check its key until they are.
     */
    public void noteExistingWrite(ByteString key, long ts) {
        writtenKeys.record(List.of(key), ts);
        if (ts > lastWriteTs) {
            lastWriteTs = ts;
        }
    }

    public Proposer proposer() {
        return proposer;
    }

    public long lastHeartbeatNanos() {
        return lastHeartbeatNanos;
    }

    public void heartbeatSent(long nanos) {
        lastHeartbeatNanos = nanos;
    }

    public long createdNanos() {
        return createdNanos;
    }
}
