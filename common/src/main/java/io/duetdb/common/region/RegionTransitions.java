package io.duetdb.common.region;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.google.protobuf.ByteString;

import io.duetdb.common.keys.KeyRanges;
import io.duetdb.common.keys.Keys;
import io.duetdb.proto.kv.Mutation;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.RegionEpoch;
import io.duetdb.proto.raftcmd.ChangePeer;
import io.duetdb.proto.raftcmd.KeyValue;
import io.duetdb.proto.raftcmd.RaftCommand;
import io.duetdb.proto.raftcmd.Split;

/**
 * How a region's record changes under the admin commands of its log (membership changes, splits, merges), and
 * which keys its transactional commands touch: pure functions that every replica runs alike, row stores and column
 * learners. The epoch checks are the caller's.
 */
public final class RegionTransitions {
    private RegionTransitions() {
    }

    /** The region after a command, or why the command does not apply (every replica refuses it alike). */
    public record Outcome(Region region, String error) {
        public static Outcome of(Region region) {
            return new Outcome(requireNonNull(region, "region is null"), null);
        }

        public static Outcome refused(String error) {
            return new Outcome(null, requireNonNull(error, "error is null"));
        }

        public boolean refused() {
            return error != null;
        }
    }

    /** The two regions a split leaves: the old one keeps the left part. */
    public record SplitOutcome(Region left, Region right, String error) {
    }

    public static Outcome changePeer(Region region, ChangePeer change) {
        Peer peer = change.getPeer();
        List<Peer> peers = new ArrayList<>(region.getPeersList());
        Optional<Peer> existing = peers.stream().filter(p -> p.getStoreId() == peer.getStoreId()).findFirst();
        switch (change.getChange()) {
            case ADD_LEARNER -> {
                if (existing.isPresent()) {
                    return Outcome.refused("store " + peer.getStoreId() + " already holds a replica of region " + region.getId());
                }
                peers.add(peer.toBuilder().setRole(PeerRole.LEARNER).build());
            }
            case PROMOTE_LEARNER -> {
                if (existing.isEmpty() || existing.get().getRole() != PeerRole.LEARNER) {
                    return Outcome.refused("region " + region.getId() + " has no learner on store " + peer.getStoreId());
                }
                peers.set(peers.indexOf(existing.get()), existing.get().toBuilder().setRole(PeerRole.VOTER).build());
            }
            case REMOVE_PEER -> {
                if (existing.isEmpty()) {
                    return Outcome.refused("region " + region.getId() + " has no replica on store " + peer.getStoreId());
                }
                long votersLeft = peers.stream().filter(p -> p.getRole() == PeerRole.VOTER && p != existing.get()).count();
                if (votersLeft == 0) {
                    return Outcome.refused("cannot remove the last voter of region " + region.getId());
                }
                peers.remove(existing.get());
            }
            default -> {
                return Outcome.refused("unknown membership change " + change.getChange());
            }
        }
        return Outcome.of(region.toBuilder().clearPeers().addAllPeers(peers)
                .setEpoch(region.getEpoch().toBuilder().setConfVersion(region.getEpoch().getConfVersion() + 1)).build());
    }

    public static SplitOutcome split(Region region, Split split) {
        byte[] splitKey = split.getSplitKey().toByteArray();
        byte[] start = region.getStartKey().toByteArray();
        byte[] end = region.getEndKey().toByteArray();
        if (splitKey.length == 0 || KeyRanges.compare(splitKey, start) <= 0
                || (end.length > 0 && KeyRanges.compare(splitKey, end) >= 0)) {
            return new SplitOutcome(null, null, "split key " + Keys.describe(splitKey) + " is not inside region "
                    + region.getId());
        }
        if (split.getNewPeerIdsCount() != region.getPeersCount() || split.getNewRegionId() == 0
                || split.getNewRegionId() == region.getId()) {
            return new SplitOutcome(null, null, "split of region " + region.getId() + " needs a new region id and "
                    + region.getPeersCount() + " new peer ids");
        }
        RegionEpoch newEpoch = region.getEpoch().toBuilder().setVersion(region.getEpoch().getVersion() + 1).build();
        Region left = region.toBuilder().setEndKey(ByteString.copyFrom(splitKey)).setEpoch(newEpoch).build();
        Region.Builder right = Region.newBuilder().setId(split.getNewRegionId()).setStartKey(ByteString.copyFrom(splitKey))
                .setEndKey(region.getEndKey()).setEpoch(newEpoch);
        for (int i = 0; i < region.getPeersCount(); i++) {
            right.addPeers(region.getPeers(i).toBuilder().setId(split.getNewPeerIds(i)));
        }
        return new SplitOutcome(left, right.build(), null);
    }

    /** The region frozen for a merge: both versions move on, so requests proposed before are refused. */
    public static Region prepareMerge(Region region) {
        return region.toBuilder().setEpoch(region.getEpoch().toBuilder()
                .setVersion(region.getEpoch().getVersion() + 1)
                .setConfVersion(region.getEpoch().getConfVersion() + 1)).build();
    }

    public static Region rollbackMerge(Region region) {
        return region.toBuilder().setEpoch(region.getEpoch().toBuilder()
                .setVersion(region.getEpoch().getVersion() + 1)).build();
    }

    /** The target after absorbing its adjacent {@code source}. */
    public static Outcome commitMerge(Region region, Region source) {
        Region.Builder merged = region.toBuilder();
        if (source.getEndKey().equals(region.getStartKey()) && !source.getEndKey().isEmpty()) {
            merged.setStartKey(source.getStartKey());
        } else if (region.getEndKey().equals(source.getStartKey()) && !region.getEndKey().isEmpty()) {
            merged.setEndKey(source.getEndKey());
        } else {
            return Outcome.refused("region " + source.getId() + " is not adjacent to region " + region.getId());
        }
        long version = Math.max(region.getEpoch().getVersion(), source.getEpoch().getVersion()) + 1;
        return Outcome.of(merged.setEpoch(region.getEpoch().toBuilder().setVersion(version)).build());
    }

    /** The user keys a transactional command touches; empty for other commands. */
    public static List<ByteString> transactionalKeys(RaftCommand command) {
        return switch (command.getCommandCase()) {
            case PREWRITE -> command.getPrewrite().getMutationsList().stream().map(Mutation::getKey).toList();
            case COMMIT -> command.getCommit().getKeysList();
            case ROLLBACK -> command.getRollback().getKeysList();
            case PESSIMISTIC_LOCK -> command.getPessimisticLock().getKeysList();
            case PESSIMISTIC_ROLLBACK -> command.getPessimisticRollback().getKeysList();
            case TXN_HEART_BEAT -> List.of(command.getTxnHeartBeat().getPrimary());
            case GARBAGE_COLLECT -> command.getGarbageCollect().getKeysList();
            case TXN_IMPORT -> command.getTxnImport().getPairsList().stream().map(KeyValue::getKey).toList();
            default -> List.of();
        };
    }

    public static boolean contains(Region region, ByteString key) {
        return KeyRanges.contains(region.getStartKey().toByteArray(), region.getEndKey().toByteArray(), key.toByteArray());
    }

    public static String describe(RegionEpoch epoch) {
        return "(conf " + epoch.getConfVersion() + ", version " + epoch.getVersion() + ")";
    }
}
