package io.duetdb.placement.internal.schedule;

import static java.util.Objects.requireNonNull;

import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.placement.ChangePeer;
import io.duetdb.proto.placement.PeerChangeType;
import io.duetdb.proto.placement.RegionHeartbeatResponse;
import io.duetdb.proto.placement.TransferLeader;

/** One step of an operator, sent to the region's leader and recognised as done from its heartbeats. */
public sealed interface OperatorStep {
    boolean isFinished(Region region, Peer leader);

    void writeTo(RegionHeartbeatResponse.Builder response);

    record AddLearner(Peer peer) implements OperatorStep {
        public AddLearner {
            requireNonNull(peer, "peer is null");
        }

        @Override
        public boolean isFinished(Region region, Peer leader) {
            return region.getPeersList().stream().anyMatch(p -> p.getId() == peer.getId());
        }

        @Override
        public void writeTo(RegionHeartbeatResponse.Builder response) {
            response.setChangePeer(ChangePeer.newBuilder().setChangeType(PeerChangeType.ADD_LEARNER)
                    .setPeer(peer.toBuilder().setRole(PeerRole.LEARNER)));
        }

        @Override
        public String toString() {
            return "add learner " + peer.getId() + " on store " + peer.getStoreId();
        }
    }

    record PromoteLearner(Peer peer) implements OperatorStep {
        public PromoteLearner {
            requireNonNull(peer, "peer is null");
        }

        @Override
        public boolean isFinished(Region region, Peer leader) {
            return region.getPeersList().stream()
                    .anyMatch(p -> p.getId() == peer.getId() && p.getRole() == PeerRole.VOTER);
        }

        @Override
        public void writeTo(RegionHeartbeatResponse.Builder response) {
            response.setChangePeer(ChangePeer.newBuilder().setChangeType(PeerChangeType.PROMOTE_LEARNER)
                    .setPeer(peer.toBuilder().setRole(PeerRole.VOTER)));
        }

        @Override
        public String toString() {
            return "promote learner " + peer.getId() + " on store " + peer.getStoreId();
        }
    }

    record RemovePeer(Peer peer) implements OperatorStep {
        public RemovePeer {
            requireNonNull(peer, "peer is null");
        }

        @Override
        public boolean isFinished(Region region, Peer leader) {
            return region.getPeersList().stream().noneMatch(p -> p.getId() == peer.getId());
        }

        @Override
        public void writeTo(RegionHeartbeatResponse.Builder response) {
            response.setChangePeer(ChangePeer.newBuilder().setChangeType(PeerChangeType.REMOVE_PEER).setPeer(peer));
        }

        @Override
        public String toString() {
            return "remove peer " + peer.getId() + " from store " + peer.getStoreId();
        }
    }

    /** Merge the region into {@code target}; done once the region no longer exists (its version moves first). */
    record MergeInto(Region target) implements OperatorStep {
        public MergeInto {
            requireNonNull(target, "target is null");
        }

        @Override
        public boolean isFinished(Region region, Peer leader) {
            return false;
        }

        @Override
        public void writeTo(RegionHeartbeatResponse.Builder response) {
            response.setMerge(io.duetdb.proto.placement.MergeRegion.newBuilder().setTarget(target));
        }

        @Override
        public String toString() {
            return "merge into region " + target.getId();
        }
    }

    record TransferLeaderTo(Peer peer) implements OperatorStep {
        public TransferLeaderTo {
            requireNonNull(peer, "peer is null");
        }

        @Override
        public boolean isFinished(Region region, Peer leader) {
            return leader != null && leader.getStoreId() == peer.getStoreId();
        }

        @Override
        public void writeTo(RegionHeartbeatResponse.Builder response) {
            response.setTransferLeader(TransferLeader.newBuilder().setPeer(peer));
        }

        @Override
        public String toString() {
            return "transfer leader to peer " + peer.getId() + " on store " + peer.getStoreId();
        }
    }
}
