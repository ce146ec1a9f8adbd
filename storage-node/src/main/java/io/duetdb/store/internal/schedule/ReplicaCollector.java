package io.duetdb.store.internal.schedule;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.store.internal.StoreNode;
import io.duetdb.store.internal.region.RegionPeer;

/**
 * Removes replicas this store still holds after placement moved them away: a replica that placement's newer
 * record of its region no longer lists, a region that was merged or split away under it, and an empty replica
 * that never received its snapshot.
 */
public final class ReplicaCollector {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaCollector.class);
    private static final Duration EMPTY_REPLICA_GRACE = Duration.ofMinutes(2);

    private final StoreNode node;
    private final PlacementClient placement;

    public ReplicaCollector(StoreNode node, PlacementClient placement) {
        this.node = requireNonNull(node, "node is null");
        this.placement = requireNonNull(placement, "placement is null");
    }

    public void collect() {
        for (RegionPeer peer : node.peers()) {
            if (peer.isLeaderReady()) {
                continue;
            }
            try {
                check(peer);
            } catch (RuntimeException e) {
                LOG.debug("region {}: replica check failed: {}", peer.regionId(), e.toString());
            }
        }
    }

    private void check(RegionPeer peer) {
        Region local = peer.region();
        Optional<RegionInfo> known = placement.getRegionById(peer.regionId());
        if (local == null) {
            boolean listed = known.map(info -> contains(info.getRegion())).orElse(false);
            if (!listed && System.nanoTime() - peer.createdNanos() > EMPTY_REPLICA_GRACE.toNanos()) {
                node.destroyReplica(peer.regionId(), "empty replica that placement no longer lists", true);
            }
            return;
        }
        if (known.isPresent()) {
            Region current = known.get().getRegion();
            boolean newer = current.getEpoch().getConfVersion() > local.getEpoch().getConfVersion()
                    || current.getEpoch().getVersion() > local.getEpoch().getVersion();
            if (newer && !contains(current)) {
                node.destroyReplica(peer.regionId(), "placement's newer record of the region does not list this store", true);
            }
            return;
        }
        // Placement has no such region any more: merged into a neighbour, whose newer record covers our keys.
        Optional<RegionInfo> covering = placement.getRegion(local.getStartKey().toByteArray());
        if (covering.isPresent() && covering.get().getRegion().getEpoch().getVersion() > local.getEpoch().getVersion()) {
            boolean keepData = contains(covering.get().getRegion());
            node.destroyReplica(peer.regionId(), "the region was merged into region " + covering.get().getRegion().getId(),
                    !keepData);
        }
    }

    private boolean contains(Region region) {
        return region.getPeersList().stream().anyMatch(peer -> peer.getStoreId() == node.storeId());
    }
}
