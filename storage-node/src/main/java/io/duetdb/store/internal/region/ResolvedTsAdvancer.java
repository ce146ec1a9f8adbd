package io.duetdb.store.internal.region;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.store.RegionResolvedTs;

/**
 * Advances the resolved timestamp of every region this store leads that has learner replicas: each round takes one
 * timestamp from placement and gives it to those regions so that learners read at or below it without a ReadIndex
 * round to the leader. A region whose leader can fence it without the log ({@link RegionPeer#fenceResolvedTs})
 * has it pushed to its learner stores with the log index it holds from, one request per store per round; the
 * others get a {@code ResolvedTs} entry in the log. A region whose last advance has not finished is left out of
 * the round.
 */
public final class ResolvedTsAdvancer {
    private static final Logger LOG = LoggerFactory.getLogger(ResolvedTsAdvancer.class);

    /** Sends resolved timestamps to a learner store. */
    public interface Pusher {
        CompletableFuture<Void> push(long learnerStoreId, List<RegionResolvedTs> regions);
    }

    /** Counts what happens, for metrics. */
    public interface Observer {
        void proposed();

        void pushed(int regions);
    }

    private final Supplier<? extends Iterable<RegionPeer>> peers;
    private final Supplier<CompletableFuture<Long>> timestamps;
    private final Pusher pusher;
    private final Observer observer;
    private final Duration batchWait;
    private final Set<Long> inflight = ConcurrentHashMap.newKeySet();
    private volatile boolean advancing;

    /**
     * {@code batchWait}: how long a round waits for its regions' earlier proposals to apply before it pushes what
     * it has; a region that takes longer is pushed alone when it is ready.
     */
    public ResolvedTsAdvancer(Supplier<? extends Iterable<RegionPeer>> peers, Supplier<CompletableFuture<Long>> timestamps,
            Pusher pusher, Observer observer, Duration batchWait) {
        this.peers = requireNonNull(peers, "peers is null");
        this.timestamps = requireNonNull(timestamps, "timestamps is null");
        this.pusher = requireNonNull(pusher, "pusher is null");
        this.observer = requireNonNull(observer, "observer is null");
        this.batchWait = requireNonNull(batchWait, "batchWait is null");
    }

    /** One round; returns at once, the proposals and pushes complete in the background. */
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
            advanceAll(leading, ts);
        });
    }

    private void advanceAll(List<RegionPeer> leading, long ts) {
        Round round = new Round();
        List<CompletableFuture<Void>> fenced = new ArrayList<>();
        for (RegionPeer peer : leading) {
            Optional<CompletableFuture<RegionResolvedTs>> fence = peer.fenceResolvedTs(ts);
            if (fence.isEmpty()) {
                observer.proposed();
                peer.proposeResolvedTs(ts).whenComplete((result, failure) -> inflight.remove(peer.regionId()));
                continue;
            }
            List<Long> learners = learnerStores(peer.region());
            fenced.add(fence.get().handle((advance, failure) -> {
                if (advance != null) {
                    round.add(learners, advance);
                }
                inflight.remove(peer.regionId());
                return null;
            }));
        }
        if (fenced.isEmpty()) {
            return;
        }
        CompletableFuture.allOf(fenced.toArray(CompletableFuture[]::new))
                .completeOnTimeout(null, batchWait.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((done, failure) -> round.flush());
    }

    private static List<Long> learnerStores(Region region) {
        List<Long> stores = new ArrayList<>();
        if (region != null) {
            for (Peer peer : region.getPeersList()) {
                if (peer.getRole() == PeerRole.LEARNER) {
                    stores.add(peer.getStoreId());
                }
            }
        }
        return stores;
    }

    static boolean hasLearners(Region region) {
        return region != null && region.getPeersList().stream().anyMatch(peer -> peer.getRole() == PeerRole.LEARNER);
    }

    /** The advances of one round, gathered per learner store until the round flushes; later ones go alone. */
    private final class Round {
        private final Map<Long, List<RegionResolvedTs>> byStore = new HashMap<>();
        private boolean flushed;

        void add(List<Long> learners, RegionResolvedTs advance) {
            synchronized (this) {
                if (!flushed) {
                    learners.forEach(store -> byStore.computeIfAbsent(store, key -> new ArrayList<>()).add(advance));
                    return;
                }
            }
            learners.forEach(store -> send(store, List.of(advance)));
        }

        void flush() {
            Map<Long, List<RegionResolvedTs>> batches;
            synchronized (this) {
                flushed = true;
                batches = Map.copyOf(byStore);
                byStore.clear();
            }
            batches.forEach(ResolvedTsAdvancer.this::send);
        }
    }

    private void send(long store, List<RegionResolvedTs> regions) {
        observer.pushed(regions.size());
        pusher.push(store, regions).whenComplete((done, failure) -> {
            if (failure != null) {
                LOG.debug("resolved timestamps for store {} not delivered: {}", store, failure.toString());
            }
        });
    }
}
