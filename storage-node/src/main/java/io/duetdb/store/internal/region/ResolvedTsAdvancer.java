package io.duetdb.store.internal.region;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;

/**
 * Advances the resolved timestamp of every region this store leads that has learner replicas: each round takes one
 * timestamp from placement and proposes it to those regions ({@code ResolvedTs} in the log), so that learners read
 * at or below it without a ReadIndex round to the leader. A region whose last proposal has not applied yet is left
 * out of the round.
 */
public final class ResolvedTsAdvancer {
    private static final Logger LOG = LoggerFactory.getLogger(ResolvedTsAdvancer.class);

    private final Supplier<? extends Iterable<RegionPeer>> peers;
    private final Supplier<CompletableFuture<Long>> timestamps;
    private final Runnable proposed;
    private final Set<Long> inflight = ConcurrentHashMap.newKeySet();
    private volatile boolean advancing;

    public ResolvedTsAdvancer(Supplier<? extends Iterable<RegionPeer>> peers, Supplier<CompletableFuture<Long>> timestamps,
            Runnable proposed) {
        this.peers = requireNonNull(peers, "peers is null");
        this.timestamps = requireNonNull(timestamps, "timestamps is null");
        this.proposed = requireNonNull(proposed, "proposed is null");
    }

    /** One round; returns at once, the proposals complete in the background. */
    public void advance() {
        List<RegionPeer> leading = new ArrayList<>();
        boolean anyLearners = false;
        for (RegionPeer peer : peers.get()) {
            if (hasLearners(peer.region()) && peer.isLeaderReady()) {
                anyLearners = true;
                if (!inflight.contains(peer.regionId())) {
                    leading.add(peer);
                }
            }
        }
        if (anyLearners != advancing) {
            advancing = anyLearners;
            LOG.info(anyLearners ? "advancing the resolved timestamps of regions with learners led here"
                    : "no region led here has learners: resolved timestamps stop");
        }
        if (leading.isEmpty()) {
            return;
        }
        leading.forEach(peer -> inflight.add(peer.regionId()));
        timestamps.get().whenComplete((ts, error) -> {
            if (error != null) {
                LOG.debug("no timestamp for resolved timestamps this round: {}", error.toString());
                leading.forEach(peer -> inflight.remove(peer.regionId()));
                return;
            }
            for (RegionPeer peer : leading) {
                proposed.run();
                peer.proposeResolvedTs(ts).whenComplete((result, failure) -> inflight.remove(peer.regionId()));
            }
        });
    }

    static boolean hasLearners(Region region) {
        return region != null && region.getPeersList().stream().anyMatch(peer -> peer.getRole() == PeerRole.LEARNER);
    }
}
