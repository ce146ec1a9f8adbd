package io.duetdb.client.txn;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.time.Timestamp;
import io.duetdb.proto.kv.CheckTxnStatusRequest;
import io.duetdb.proto.kv.CheckTxnStatusResponse;
import io.duetdb.proto.kv.LockInfo;
import io.duetdb.proto.kv.ResolveLockRequest;
import io.duetdb.proto.kv.ResolveLockResponse;

/**
 * Clears locks left by other transactions: asks the lock's primary key how its transaction ended (rolling it
 * back if its TTL ran out), then commits or rolls back the lock to match. Locks of live transactions are
 * left alone; the caller waits and tries again.
 */
final class LockResolver {
    private static final Logger LOG = LoggerFactory.getLogger(LockResolver.class);

    /** How a transaction ended: committed at commitTs, or rolled back (commitTs 0); or alive for ttl more ms. */
    private record Status(long commitTs, long msUntilExpiry) {
        boolean isFinal() {
            return msUntilExpiry == 0;
        }
    }

    private final PlacementClient placement;
    private final RegionBatches batches;
    private final Map<Long, Status> finished = new ConcurrentHashMap<>();

    LockResolver(PlacementClient placement, RegionBatches batches) {
        this.placement = requireNonNull(placement, "placement is null");
        this.batches = requireNonNull(batches, "batches is null");
    }

    /**
     * Resolves what can be resolved; answers how many milliseconds to wait before the rest (locks of live
     * transactions) may have expired, or 0 when every lock is gone.
     */
    long resolve(List<LockInfo> locks) {
        long wait = 0;
        Map<Long, List<LockInfo>> byTransaction = new LinkedHashMap<>();
        for (LockInfo lock : locks) {
            byTransaction.computeIfAbsent(lock.getLockVersion(), ts -> new ArrayList<>()).add(lock);
        }
        for (Map.Entry<Long, List<LockInfo>> entry : byTransaction.entrySet()) {
            LockInfo first = entry.getValue().get(0);
            Status status = status(first);
            if (!status.isFinal()) {
                wait = wait == 0 ? status.msUntilExpiry() : Math.min(wait, status.msUntilExpiry());
                continue;
            }
            List<ByteString> keys = entry.getValue().stream().map(LockInfo::getKey).distinct().toList();
            resolveKeys(entry.getKey(), status.commitTs(), keys);
        }
        return wait;
    }

    private Status status(LockInfo lock) {
        Status known = finished.get(lock.getLockVersion());
        if (known != null) {
            return known;
        }
        long now = placement.getTimestamp().packed();
        CheckTxnStatusResponse response = batches.sendOne(lock.getPrimaryLock(), false, (stub, context, keys) ->
                stub.kvCheckTxnStatus(CheckTxnStatusRequest.newBuilder().setContext(context)
                        .setPrimaryKey(lock.getPrimaryLock()).setLockTs(lock.getLockVersion()).setCurrentTs(now)
                        .setRollbackIfNotExist(true).build()),
                CheckTxnStatusResponse::getRegionError, CheckTxnStatusResponse::hasRegionError);
        if (response.hasError()) {
            throw new DuetException(ErrorCode.RESOLVE_LOCK_TIMEOUT, "cannot check transaction "
                    + lock.getLockVersion() + ": " + response.getError());
        }
        if (response.getLockTtl() != 0) {
            long expiresAt = Timestamp.fromPacked(lock.getLockVersion()).physical() + response.getLockTtl();
            return new Status(0, Math.max(1, expiresAt - Timestamp.fromPacked(now).physical()));
        }
        Status status = new Status(response.getCommitVersion(), 0);
        finished.put(lock.getLockVersion(), status);
        if (finished.size() > 100_000) {
            finished.clear();
        }
        LOG.debug("transaction {} {}", lock.getLockVersion(), status.commitTs() == 0 ? "rolled back"
                : "committed at " + status.commitTs());
        return status;
    }

    private void resolveKeys(long startTs, long commitTs, List<ByteString> keys) {
        for (RegionBatches.Sent<ResolveLockResponse> sent : batches.send(keys, false, key -> key.size(),
                (stub, context, batch) -> stub.kvResolveLock(ResolveLockRequest.newBuilder().setContext(context)
                        .setStartVersion(startTs).setCommitVersion(commitTs).addAllKeys(batch).build()),
                ResolveLockResponse::getRegionError, ResolveLockResponse::hasRegionError)) {
            if (sent.response().hasError()) {
                throw new DuetException(ErrorCode.RESOLVE_LOCK_TIMEOUT, "cannot resolve the locks of transaction "
                        + startTs + ": " + sent.response().getError());
            }
        }
    }
}
