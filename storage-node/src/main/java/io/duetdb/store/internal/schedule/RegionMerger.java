package io.duetdb.store.internal.schedule;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.region.RegionDescriptions;
import io.duetdb.common.region.RegionErrors;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.raftcmd.CommandResult;
import io.duetdb.proto.raftcmd.CommitMerge;
import io.duetdb.proto.raftcmd.PrepareMerge;
import io.duetdb.proto.raftcmd.RaftCommand;
import io.duetdb.proto.raftcmd.RollbackMerge;
import io.duetdb.proto.store.ListRegionsRequest;
import io.duetdb.proto.store.LocalRegion;
import io.duetdb.proto.store.MergeRegionRequest;
import io.duetdb.proto.store.MergeRegionResponse;
import io.duetdb.store.internal.StoreNode;
import io.duetdb.store.internal.region.RegionPeer;
import io.duetdb.store.internal.rpc.StoreClients;

/**
 * Merges a region (the source) into an adjacent one (the target) that has replicas on the same stores:
 * the source's leader freezes it through its own log (PrepareMerge), waits until every replica applied
 * that, then asks the target's leader to absorb it through the target's log (CommitMerge). Each target
 * replica then owns the source's keys, which already sit in the same engine, and drops the source's group.
 * If the source cannot be frozen everywhere, the merge is rolled back through the source's log.
 */
public final class RegionMerger {
    private static final Logger LOG = LoggerFactory.getLogger(RegionMerger.class);
    private static final Duration FREEZE_WAIT = Duration.ofSeconds(30);

    private final StoreNode node;
    private final PlacementClient placement;
    private final StoreClients clients;

    public RegionMerger(StoreNode node, PlacementClient placement, StoreClients clients) {
        this.node = requireNonNull(node, "node is null");
        this.placement = requireNonNull(placement, "placement is null");
        this.clients = requireNonNull(clients, "clients is null");
    }

    /** Called on the store leading the source. */
    public MergeRegionResponse merge(RegionPeer source, long targetRegionId) {
        Region region = source.region();
        if (region == null || !source.isLeaderReady()) {
            return MergeRegionResponse.newBuilder().setRegionError(RegionErrors.notLeader(source.regionId(),
                    source.leaderPeer().orElse(null))).build();
        }
        Optional<RegionInfo> target = placement.getRegionById(targetRegionId);
        if (target.isEmpty() || !target.get().hasLeader()) {
            return error("region " + targetRegionId + " is unknown or has no leader yet");
        }
        Region targetRegion = target.get().getRegion();
        boolean adjacent = (!region.getEndKey().isEmpty() && region.getEndKey().equals(targetRegion.getStartKey()))
                || (!targetRegion.getEndKey().isEmpty() && targetRegion.getEndKey().equals(region.getStartKey()));
        if (!adjacent) {
            return error("regions " + region.getId() + " and " + targetRegionId + " are not adjacent");
        }
        if (!stores(region).equals(stores(targetRegion)) || hasLearners(region) || hasLearners(targetRegion)) {
            return error("regions " + region.getId() + " and " + targetRegionId
                    + " must have their voters on the same stores (and no learners) to merge");
        }
        CommandResult prepared = source.propose(RaftCommand.newBuilder().setEpoch(region.getEpoch())
                .setPrepareMerge(PrepareMerge.newBuilder().setTargetRegionId(targetRegionId)).build()).join();
        if (prepared.hasRegionError() || !prepared.getError().isEmpty()) {
            return MergeRegionResponse.newBuilder().setRegionError(prepared.getRegionError()).setError(prepared.getError()).build();
        }
        Region frozen = prepared.getRegion();
        LOG.info("region {} frozen for a merge into region {}", region.getId(), targetRegionId);
        if (!awaitFrozenEverywhere(frozen)) {
            rollback(source, frozen, "not every replica froze within " + FREEZE_WAIT.toSeconds() + " s");
            return error("merge of region " + region.getId() + " abandoned: not every replica froze in time");
        }
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                RegionInfo current = placement.getRegionById(targetRegionId).orElseThrow();
                MergeRegionResponse committed = clients.admin(node.addressOf(current.getLeader().getStoreId()))
                        .withDeadlineAfter(30, TimeUnit.SECONDS)
                        .mergeRegion(MergeRegionRequest.newBuilder().setSourceRegionId(region.getId())
                                .setTargetRegionId(targetRegionId).setPreparedSource(frozen).build());
                if (!committed.hasRegionError() && committed.getError().isEmpty()) {
                    LOG.info("region {} merged into {}", region.getId(), RegionDescriptions.describe(committed.getRegion()));
                    return committed;
                }
                LOG.info("region {}: target {} did not commit the merge yet: {}", region.getId(), targetRegionId,
                        committed.hasRegionError() ? committed.getRegionError().getMessage() : committed.getError());
            } catch (RuntimeException e) {
                LOG.info("region {}: asking region {} to commit the merge failed: {}", region.getId(), targetRegionId, e.toString());
            }
            sleep(1_000L * (attempt + 1));
        }
        // The target may or may not have committed; rolling back could hand the same keys to two regions, so
        // the source stays frozen and replica collection removes it once placement sees the target's new range.
        return error("merge of region " + region.getId() + " into " + targetRegionId
                + " is waiting for the target to commit; the source stays frozen");
    }

    /** Called on the store leading the target, with the source frozen everywhere. */
    public MergeRegionResponse commit(RegionPeer target, Region frozenSource) {
        Region region = target.region();
        if (region == null || !target.isLeaderReady()) {
            return MergeRegionResponse.newBuilder().setRegionError(RegionErrors.notLeader(target.regionId(),
                    target.leaderPeer().orElse(null))).build();
        }
        CommandResult result = target.propose(RaftCommand.newBuilder().setEpoch(region.getEpoch())
                .setCommitMerge(CommitMerge.newBuilder().setSource(frozenSource)).build()).join();
        if (result.hasRegionError() || !result.getError().isEmpty()) {
            return MergeRegionResponse.newBuilder().setRegionError(result.getRegionError()).setError(result.getError()).build();
        }
        target.heartbeatDue.set(true);
        return MergeRegionResponse.newBuilder().setRegion(result.getRegion()).build();
    }

    private boolean awaitFrozenEverywhere(Region frozen) {
        long deadline = System.nanoTime() + FREEZE_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            boolean all = true;
            for (Peer peer : frozen.getPeersList()) {
                if (!frozenOn(peer.getStoreId(), frozen)) {
                    all = false;
                    break;
                }
            }
            if (all) {
                return true;
            }
            sleep(100);
        }
        return false;
    }

    private boolean frozenOn(long storeId, Region frozen) {
        try {
            List<LocalRegion> regions = clients.admin(node.addressOf(storeId)).withDeadlineAfter(5, TimeUnit.SECONDS)
                    .listRegions(ListRegionsRequest.getDefaultInstance()).getRegionsList();
            return regions.stream().anyMatch(local -> local.getRegion().getId() == frozen.getId()
                    && local.getState().equals("MERGING")
                    && local.getRegion().getEpoch().equals(frozen.getEpoch()));
        } catch (RuntimeException e) {
            return false;
        }
    }

    private void rollback(RegionPeer source, Region frozen, String why) {
        CommandResult result = source.propose(RaftCommand.newBuilder().setEpoch(frozen.getEpoch())
                .setRollbackMerge(RollbackMerge.getDefaultInstance()).build()).join();
        LOG.info("region {}: merge rolled back ({}): {}", frozen.getId(), why,
                result.hasRegion() ? RegionDescriptions.describe(result.getRegion()) : result.getError());
    }

    private static Set<Long> stores(Region region) {
        return region.getPeersList().stream().map(Peer::getStoreId).collect(Collectors.toSet());
    }

    private static boolean hasLearners(Region region) {
        return region.getPeersList().stream().anyMatch(peer -> peer.getRole() == PeerRole.LEARNER);
    }

    private static MergeRegionResponse error(String message) {
        return MergeRegionResponse.newBuilder().setError(message).build();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
