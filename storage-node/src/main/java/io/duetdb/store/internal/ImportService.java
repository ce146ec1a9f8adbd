package io.duetdb.store.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

import com.google.protobuf.ByteString;

import io.duetdb.common.keys.Keys;
import io.duetdb.common.keys.KvLimits;
import io.duetdb.proto.kv.ImportRequest;
import io.duetdb.proto.kv.ImportResponse;
import io.duetdb.proto.kv.KeyValue;
import io.duetdb.proto.raftcmd.RaftCommand;
import io.duetdb.proto.raftcmd.TxnImport;
import io.duetdb.store.internal.KvService.Refusal;
import io.duetdb.store.internal.region.RegionPeer;

/**
 * Committed versions written without Percolator's locks (KvImport): one TxnImport command per request, applied by
 * every replica as one batch of commit records. No latches: the command reads nothing, so its outcome is the same
 * wherever the log puts it, and a transaction's prewrite on one of its keys sees it as any newer commit.
 */
public final class ImportService {
    private final KvService kv;
    private final LongSupplier gcSafePoint;

    public ImportService(KvService kv, LongSupplier gcSafePoint) {
        this.kv = requireNonNull(kv, "kv is null");
        this.gcSafePoint = requireNonNull(gcSafePoint, "gcSafePoint is null");
    }

    public CompletableFuture<ImportResponse> importCommitted(ImportRequest request) {
        List<ByteString> keys = new ArrayList<>(request.getPairsCount());
        TxnImport.Builder command = TxnImport.newBuilder().setCommitTs(request.getCommitVersion());
        RegionPeer peer;
        try {
            checkPairs(request);
            long safePoint = gcSafePoint.getAsLong();
            if (request.getCommitVersion() <= 0 || request.getCommitVersion() < safePoint) {
                throw new Refusal("commit ts " + request.getCommitVersion() + " is not a timestamp at or after the GC"
                        + " safe point " + safePoint);
            }
            for (KeyValue pair : request.getPairsList()) {
                keys.add(pair.getKey());
                command.addPairs(io.duetdb.proto.raftcmd.KeyValue.newBuilder().setKey(pair.getKey())
                        .setValue(pair.getValue()));
            }
            peer = kv.checkedPeer(request.getContext(), keys, true);
        } catch (Refusal refusal) {
            ImportResponse.Builder response = ImportResponse.newBuilder();
            if (refusal.regionError != null) {
                response.setRegionError(refusal.regionError);
            } else {
                response.setError(refusal.getMessage());
            }
            return CompletableFuture.completedFuture(response.build());
        }
        return peer.propose(RaftCommand.newBuilder().setEpoch(peer.region().getEpoch()).setTxnImport(command).build()).thenApply(result -> {
            ImportResponse.Builder response = ImportResponse.newBuilder();
            if (result.hasRegionError()) {
                response.setRegionError(result.getRegionError());
            } else {
                response.setError(result.getError());
            }
            return response.build();
        });
    }

    private static void checkPairs(ImportRequest request) {
        if (request.getPairsCount() > TxnService.MAX_KEYS_PER_REQUEST) {
            throw new Refusal(request.getPairsCount() + " keys in one request exceed the limit of "
                    + TxnService.MAX_KEYS_PER_REQUEST);
        }
        Set<ByteString> seen = new HashSet<>();
        long total = 0;
        for (KeyValue pair : request.getPairsList()) {
            KvService.checkKey(pair.getKey());
            KvService.checkValue(pair.getValue());
            if (!seen.add(pair.getKey())) {
                throw new Refusal("key " + Keys.describe(pair.getKey().toByteArray()) + " appears twice in one request");
            }
            total += KvLimits.pairBytes(pair.getKey().size(), pair.getValue().size());
        }
        if (total > KvLimits.MAX_WRITE_BYTES) {
            throw new Refusal("import of " + total + " bytes exceeds the limit of " + KvLimits.MAX_WRITE_BYTES
                    + " for one write");
        }
    }
}
