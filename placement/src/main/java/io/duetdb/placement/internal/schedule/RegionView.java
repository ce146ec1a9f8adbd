package io.duetdb.placement.internal.schedule;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;

/**
 * A region with what its leader last reported; {@code leader} is null when no heartbeat arrived yet.
 * {@code rangeAgeNanos} is how long its range (version) has been as it is, as far as this leader saw.
 */
public record RegionView(Region region, Peer leader, List<Peer> downPeers, List<Peer> pendingPeers,
        long approximateSize, long rangeAgeNanos) {
    public RegionView {
        requireNonNull(region, "region is null");
        downPeers = List.copyOf(downPeers);
        pendingPeers = List.copyOf(pendingPeers);
    }

    public static RegionView of(Region region, Peer leader) {
        return new RegionView(region, leader, List.of(), List.of(), 0, 0);
    }

    public long id() {
        return region.getId();
    }

    public List<Peer> voters() {
        return region.getPeersList().stream().filter(peer -> peer.getRole() == PeerRole.VOTER).toList();
    }

    public List<Peer> learners() {
        return region.getPeersList().stream().filter(peer -> peer.getRole() == PeerRole.LEARNER).toList();
    }

    public Optional<Peer> peerOn(long storeId) {
        return region.getPeersList().stream().filter(peer -> peer.getStoreId() == storeId).findFirst();
    }

    public boolean isLeader(Peer peer) {
        return leader != null && leader.getId() == peer.getId();
    }

    /** No peer is down or catching up. */
    public boolean isHealthy() {
        return downPeers.isEmpty() && pendingPeers.isEmpty();
    }

    public boolean isPendingOrDown(Peer peer) {
        return downPeers.stream().anyMatch(p -> p.getId() == peer.getId())
                || pendingPeers.stream().anyMatch(p -> p.getId() == peer.getId());
    }
}
