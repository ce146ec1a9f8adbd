package io.duetdb.store.internal.schedule;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.concurrent.ExecutorService;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.placement.PlacementException;
import io.duetdb.common.region.StorePeers;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.placement.ErrorType;
import io.duetdb.proto.placement.RegionHeartbeatRequest;
import io.duetdb.proto.placement.RegionHeartbeatResponse;
import io.duetdb.proto.placement.StoreStats;
import io.duetdb.raft.RaftGroupHandle;
import io.duetdb.store.internal.DiskMonitor;
import io.duetdb.store.internal.StoreNode;
import io.duetdb.store.internal.region.RegionPeer;

/**
 * Reports to placement: the store's load every store-heartbeat interval, and each region it leads every
 * region-heartbeat interval or as soon as something changed (leadership, epoch), handing placement's answer
 * (a scheduling step) to {@link RegionOperations}.
 */
public final class Heartbeats {
    private static final Logger LOG = LoggerFactory.getLogger(Heartbeats.class);
    /** A follower this far behind the leader's commit index is reported as pending. */
    private static final long PENDING_LAG = 1_000;

    private final StoreNode node;
    private final PlacementClient placement;
    private final RegionOperations operations;
    private final DiskMonitor disk;
    private final ExecutorService senders;
    private final long startTimeMillis = System.currentTimeMillis();

    public Heartbeats(StoreNode node, PlacementClient placement, RegionOperations operations, DiskMonitor disk,
            ExecutorService senders) {
        this.node = requireNonNull(node, "node is null");
        this.placement = requireNonNull(placement, "placement is null");
        this.operations = requireNonNull(operations, "operations is null");
        this.disk = requireNonNull(disk, "disk is null");
        this.senders = requireNonNull(senders, "senders is null");
    }

    public void sendStoreHeartbeat() {
        disk.refresh();
        int regions = 0;
        int leaders = 0;
        for (RegionPeer peer : node.peers()) {
            if (peer.region() != null) {
                regions++;
                if (peer.isLeaderReady()) {
                    leaders++;
                }
            }
        }
        long used = node.engine().diskUsage();
        placement.storeHeartbeat(StoreStats.newBuilder()
                .setStoreId(node.storeId())
                .setCapacityBytes(disk.capacityBytes())
                .setAvailableBytes(disk.availableBytes())
                .setUsedBytes(Math.max(0, used))
                .setRegionCount(regions)
                .setLeaderCount(leaders)
                .setStartTimeMs(startTimeMillis)
                .setIsBusy(disk.isFull())
                .build());
    }

    /** Sends the heartbeats that are due; called every few hundred milliseconds. */
    public void sendRegionHeartbeats() {
        long now = System.nanoTime();
        long interval = node.config().regionHeartbeatInterval().toNanos();
        for (RegionPeer peer : node.peers()) {
            if (peer.region() == null || !peer.isLeaderReady()) {
                continue;
            }
            boolean due = peer.heartbeatDue.get() || now - peer.lastHeartbeatNanos() >= interval;
            if (due) {
                peer.heartbeatDue.set(false);
                peer.heartbeatSent(now);
                senders.execute(() -> sendRegionHeartbeat(peer));
            }
        }
    }

    private void sendRegionHeartbeat(RegionPeer peer) {
        Region region = peer.region();
        if (region == null || !peer.isLeaderReady()) {
            return;
        }
        Peer self = peer.selfPeer().orElse(null);
        if (self == null) {
            return;
        }
        RaftGroupHandle handle = peer.handle();
        RegionHeartbeatRequest.Builder request = RegionHeartbeatRequest.newBuilder()
                .setRegion(region).setLeader(self).setTerm(handle.currentTerm())
                .setApproximateSize(operations.approximateSize(region));
        long commit = handle.commitIndex();
        Map<String, Long> matches = handle.followerMatchIndices();
        for (Peer member : region.getPeersList()) {
            if (member.getStoreId() == node.storeId()) {
                continue;
            }
            Long match = matches.get(StorePeers.raftPeerId(member.getStoreId()));
            if (match == null || match < commit - PENDING_LAG || match < 0) {
                request.addPendingPeers(member);
            }
        }
        try {
            RegionHeartbeatResponse response = placement.regionHeartbeat(request.build());
            operations.execute(peer, response);
        } catch (PlacementException e) {
            if (e.type() == ErrorType.STALE_REGION) {
                LOG.info("region {}: placement knows a newer version: {}", region.getId(), e.getMessage());
            } else {
                LOG.warn("region {}: heartbeat refused: {}", region.getId(), e.getMessage());
            }
            peer.heartbeatDue.set(true);
        } catch (RuntimeException e) {
            LOG.debug("region {}: heartbeat failed: {}", region.getId(), e.toString());
            peer.heartbeatDue.set(true);
        }
    }

}
