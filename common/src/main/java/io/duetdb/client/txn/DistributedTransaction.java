package io.duetdb.client.txn;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.KeyRanges;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.time.Timestamp;
import io.duetdb.proto.kv.BatchRollbackRequest;
import io.duetdb.proto.kv.BatchRollbackResponse;
import io.duetdb.proto.kv.CommitRequest;
import io.duetdb.proto.kv.CommitResponse;
import io.duetdb.proto.kv.KeyError;
import io.duetdb.proto.kv.LockInfo;
import io.duetdb.proto.kv.Mutation;
import io.duetdb.proto.kv.Op;
import io.duetdb.proto.kv.PrewriteRequest;
import io.duetdb.proto.kv.PrewriteResponse;
import io.duetdb.proto.kv.ResolveLockRequest;
import io.duetdb.proto.kv.ResolveLockResponse;
import io.duetdb.proto.kv.ScanLockRequest;
import io.duetdb.proto.kv.ScanLockResponse;
import io.duetdb.proto.kv.TxnHeartBeatRequest;
import io.duetdb.proto.kv.TxnHeartBeatResponse;
import io.duetdb.proto.meta.Region;

/**
 * A Percolator transaction whose writes come from many processes (a Spark job's tasks), as TiSpark's batch write:
 * the coordinator takes the start timestamp and prewrites a primary lock of its own (a LOCK mutation on a key
 * nobody reads, so committing it leaves no data), kept alive by heartbeats while the participants prewrite their
 * mutations as secondaries of that primary. Committing the primary commits the whole transaction at once: readers
 * that meet a secondary lock find the primary committed and roll it forward. The coordinator then resolves the
 * secondaries itself over the key ranges the writes went to, finding them with ScanLock a page at a time (no list of
 * keys travels back to it). Aborting rolls the primary back and resolves the ranges the same way, so nothing a participant prewrote
 * becomes visible, whether or not the participant finished.
 */
public final class DistributedTransaction implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DistributedTransaction.class);
    private static final String PRIMARY_PREFIX = "DistributedTxn:";
    /** Locks a ScanLock page asks for: the store's most. */
    private static final int LOCK_PAGE = 10_000;

    /** What participants need to prewrite as part of the transaction. */
    public record Ticket(long startTs, byte[] primary, long lockTtlMillis) implements Serializable {
        public Ticket {
            requireNonNull(primary, "primary is null");
            primary = primary.clone();
        }
    }

    private enum State { ACTIVE, COMMITTED, ABORTED }

    private final TxnClient client;
    private final Ticket ticket;
    private final ScheduledFuture<?> heartbeat;
    private State state = State.ACTIVE;
    private long commitTs;

    private DistributedTransaction(TxnClient client, Ticket ticket) {
        this.client = client;
        this.ticket = ticket;
        long interval = Math.max(1, ticket.lockTtlMillis() / 3);
        this.heartbeat = client.timers().scheduleWithFixedDelay(this::heartbeat, interval, interval, TimeUnit.MILLISECONDS);
    }

    /** Starts a transaction: a start timestamp, and the primary lock prewritten and kept alive. */
    public static DistributedTransaction start(TxnClient client, String owner) {
        requireNonNull(client, "client is null");
        long startTs = client.placement().getTimestamp().packed();
        byte[] primary = Keys.metaKey((PRIMARY_PREFIX + owner + ":" + startTs).getBytes(StandardCharsets.UTF_8));
        Ticket ticket = new Ticket(startTs, primary, client.config().lockTtl().toMillis());
        prewrite(client, ticket, List.of(Mutation.newBuilder().setOp(Op.LOCK).setKey(ByteString.copyFrom(primary)).build()));
        LOG.info("distributed transaction {} started for {}", startTs, owner);
        return new DistributedTransaction(client, ticket);
    }

    public Ticket ticket() {
        return ticket;
    }

    /**
     * Prewrites {@code mutations} as secondaries of the ticket's transaction. Locks of other transactions are
     * resolved or waited for; a write conflict, an existing key under INSERT, or a rolled-back transaction fails.
     * Prewriting the same mutation again is harmless (a retried task).
     */
    public static void prewrite(TxnClient client, Ticket ticket, List<Mutation> mutations) {
        if (mutations.isEmpty()) {
            return;
        }
        Map<ByteString, Mutation> byKey = new HashMap<>();
        for (Mutation mutation : mutations) {
            byKey.put(mutation.getKey(), mutation);
        }
        ByteString primary = ByteString.copyFrom(ticket.primary());
        long deadline = System.nanoTime() + client.config().requestTimeout().toNanos() + client.config().lockTtl().toNanos();
        LockBackoff backoff = new LockBackoff();
        List<ByteString> pending = new ArrayList<>(byKey.keySet());
        while (!pending.isEmpty()) {
            List<KeyError> errors = new ArrayList<>();
            List<ByteString> retry = new ArrayList<>();
            for (RegionBatches.Sent<PrewriteResponse> sent : client.batches().send(pending, false,
                    key -> key.size() + byKey.get(key).getValue().size() + 16,
                    (stub, context, batch) -> {
                        PrewriteRequest.Builder request = PrewriteRequest.newBuilder().setContext(context)
                                .setPrimaryLock(primary).setStartVersion(ticket.startTs())
                                .setLockTtl(ticket.lockTtlMillis()).setTxnSize(batch.size());
                        for (ByteString key : batch) {
                            request.addMutations(byKey.get(key));
                        }
                        return stub.kvPrewrite(request.build());
                    }, PrewriteResponse::getRegionError, PrewriteResponse::hasRegionError)) {
                if (sent.response().getErrorsCount() > 0) {
                    errors.addAll(sent.response().getErrorsList());
                    retry.addAll(sent.keys());
                }
            }
            if (errors.isEmpty()) {
                return;
            }
            Transaction.resolveOrFail(client, ticket.startTs(), errors, deadline, backoff);
            pending = retry;
        }
    }

    /**
     * Commits: the primary at a new commit timestamp (the transaction is committed from that moment), then every
     * lock of the transaction in {@code ranges}. Answers the commit timestamp.
     */
    public long commit(List<byte[][]> ranges) {
        checkActive();
        heartbeat.cancel(false);
        long ts = client.placement().getTimestamp().packed();
        ByteString primary = ByteString.copyFrom(ticket.primary());
        CommitResponse response = client.batches().sendOne(primary, false, (stub, context, keys) ->
                stub.kvCommit(CommitRequest.newBuilder().setContext(context).setStartVersion(ticket.startTs())
                        .addKeys(primary).setCommitVersion(ts).build()),
                CommitResponse::getRegionError, CommitResponse::hasRegionError);
        if (response.hasError()) {
            state = State.ABORTED;
            resolveQuietly(ranges, 0);
            KeyError error = response.getError();
            if (error.hasRolledBack() || error.hasTxnNotFound()) {
                throw new DuetException(ErrorCode.TRANSACTION_RETRYABLE, "transaction " + ticket.startTs()
                        + " was rolled back before it committed (its primary lock expired and another transaction"
                        + " resolved it); nothing was written");
            }
            throw Transaction.failure(ticket.startTs(), error);
        }
        state = State.COMMITTED;
        commitTs = ts;
        LOG.info("distributed transaction {} committed at {}", ticket.startTs(), ts);
        resolveQuietly(ranges, ts);
        return ts;
    }

    /** Rolls the transaction back: the primary, then every lock of the transaction in {@code ranges}. */
    public void abort(List<byte[][]> ranges) {
        if (state != State.ACTIVE) {
            return;
        }
        heartbeat.cancel(false);
        state = State.ABORTED;
        ByteString primary = ByteString.copyFrom(ticket.primary());
        BatchRollbackResponse response = client.batches().sendOne(primary, false, (stub, context, keys) ->
                stub.kvBatchRollback(BatchRollbackRequest.newBuilder().setContext(context)
                        .setStartVersion(ticket.startTs()).addKeys(primary).build()),
                BatchRollbackResponse::getRegionError, BatchRollbackResponse::hasRegionError);
        if (response.hasError()) {
            LOG.info("rolling back the primary of transaction {} answered {}", ticket.startTs(), response.getError());
        }
        LOG.info("distributed transaction {} aborted", ticket.startTs());
        resolveQuietly(ranges, 0);
    }

    public long commitTs() {
        return commitTs;
    }

    @Override
    public void close() {
        heartbeat.cancel(false);
    }

    /** Commits ({@code commitTs} > 0) or rolls back every lock of the transaction in the ranges, region by region. */
    private void resolveQuietly(List<byte[][]> ranges, long commitTs) {
        try {
            for (byte[][] range : ranges) {
                resolve(range[0], range[1], commitTs);
            }
        } catch (RuntimeException e) {
            LOG.info("transaction {}: resolving its secondary locks failed ({}); readers resolve them from the primary",
                    ticket.startTs(), e.getMessage());
        }
    }

    /**
     * Finds the transaction's locks in [start, end) a page at a time (ScanLock from where the last page ended, so a
     * region's resolved locks are not walked again) and commits or rolls back each page's keys.
     */
    private void resolve(byte[] start, byte[] end, long commitTs) {
        byte[] cursor = start;
        while (KeyRanges.compare(cursor, end) < 0) {
            AtomicReference<Region> used = new AtomicReference<>();
            byte[] from = cursor;
            ScanLockResponse page = client.sender().call(cursor, false, (context, stub) ->
                    stub.kvScanLock(ScanLockRequest.newBuilder().setContext(context).setMaxVersion(ticket.startTs())
                            .setStartKey(ByteString.copyFrom(from)).setEndKey(ByteString.copyFrom(end))
                            .setLimit(LOCK_PAGE).build()),
                    ScanLockResponse::getRegionError, ScanLockResponse::hasRegionError, ScanLockResponse::getError, used::set);
            if (!page.getError().isEmpty()) {
                throw new DuetException(ErrorCode.UNKNOWN_ERROR, "scanning the locks of transaction " + ticket.startTs()
                        + " failed: " + page.getError());
            }
            List<ByteString> keys = new ArrayList<>();
            for (LockInfo lock : page.getLocksList()) {
                if (lock.getLockVersion() == ticket.startTs()) {
                    keys.add(lock.getKey());
                }
            }
            resolveKeys(keys, commitTs);
            if (page.getLocksCount() >= LOCK_PAGE) {
                byte[] last = page.getLocks(page.getLocksCount() - 1).getKey().toByteArray();
                cursor = Arrays.copyOf(last, last.length + 1);
                continue;
            }
            byte[] regionEnd = used.get() == null ? new byte[0] : used.get().getEndKey().toByteArray();
            if (regionEnd.length == 0 || Arrays.compareUnsigned(regionEnd, cursor) <= 0) {
                return;
            }
            cursor = regionEnd;
        }
    }

    private void resolveKeys(List<ByteString> keys, long commitTs) {
        for (RegionBatches.Sent<ResolveLockResponse> sent : client.batches().send(keys, false, ByteString::size,
                (stub, context, batch) -> stub.kvResolveLock(ResolveLockRequest.newBuilder().setContext(context)
                        .setStartVersion(ticket.startTs()).setCommitVersion(commitTs).addAllKeys(batch).build()),
                ResolveLockResponse::getRegionError, ResolveLockResponse::hasRegionError)) {
            if (sent.response().hasError()) {
                throw Transaction.failure(ticket.startTs(), sent.response().getError());
            }
        }
    }

    private void heartbeat() {
        try {
            long alive = System.currentTimeMillis() - Timestamp.fromPacked(ticket.startTs()).physical();
            ByteString primary = ByteString.copyFrom(ticket.primary());
            TxnHeartBeatResponse response = client.batches().sendOne(primary, false, (stub, context, keys) ->
                    stub.kvTxnHeartBeat(TxnHeartBeatRequest.newBuilder().setContext(context).setPrimaryLock(primary)
                            .setStartVersion(ticket.startTs()).setAdviseLockTtl(alive + ticket.lockTtlMillis()).build()),
                    TxnHeartBeatResponse::getRegionError, TxnHeartBeatResponse::hasRegionError);
            if (response.hasError()) {
                LOG.info("heartbeat of transaction {}: {}", ticket.startTs(), response.getError());
            }
        } catch (RuntimeException e) {
            LOG.debug("heartbeat of transaction {} failed: {}", ticket.startTs(), e.getMessage());
        }
    }

    private void checkActive() {
        if (state != State.ACTIVE) {
            throw new DuetException(ErrorCode.INVALID_ARGUMENT, "transaction " + ticket.startTs() + " already "
                    + (state == State.COMMITTED ? "committed" : "rolled back"));
        }
    }
}
