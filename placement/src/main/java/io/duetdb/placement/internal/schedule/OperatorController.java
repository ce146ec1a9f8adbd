package io.duetdb.placement.internal.schedule;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what each region should do next: runs the region's operator if it has one, otherwise the
 * replica and rule checkers; and, on each balance tick, the balancers within their limits.
 */
public final class OperatorController {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorController.class);

    /** Counts operator outcomes for metrics. */
    public interface Listener {
        void created(Operator operator);

        void ended(Operator operator);
    }

    private final Map<Long, Operator> operators = new ConcurrentHashMap<>();
    private final Listener listener;

    public OperatorController(Listener listener) {
        this.listener = listener;
    }

    /** The step to send in the answer to this region's heartbeat, if any. */
    public Optional<OperatorStep> onRegionHeartbeat(RegionView region, ClusterView cluster, LongSupplier newPeerId,
            long nowNanos) {
        long timeoutNanos = cluster.config().operatorTimeout().toNanos();
        Operator running = operators.get(region.id());
        if (running != null) {
            Optional<OperatorStep> step = running.advance(region.region(), region.leader(), nowNanos, timeoutNanos);
            if (step.isPresent()) {
                return step;
            }
            end(running);
        }
        Optional<Operator> created = ReplicaChecker.check(region, cluster, newPeerId, nowNanos);
        if (created.isEmpty()) {
            created = RuleChecker.check(region, cluster, newPeerId, nowNanos);
        }
        if (created.isEmpty() && count(Operator.Kind.MERGE) < cluster.config().mergeScheduleLimit()) {
            created = MergeChecker.check(region, cluster, operators::containsKey, nowNanos);
        }
        if (created.isEmpty()) {
            return Optional.empty();
        }
        Operator operator = created.get();
        if (!add(operator)) {
            return Optional.empty();
        }
        return operator.advance(region.region(), region.leader(), nowNanos, timeoutNanos);
    }

    /** One balance round: at most one leader move and one replica move, within the configured limits. */
    public void balance(ClusterView cluster, LongSupplier newPeerId, long nowNanos) {
        if (count(Operator.Kind.LEADER_BALANCE) < cluster.config().leaderScheduleLimit()) {
            Balancers.balanceLeaders(cluster, operators::containsKey, nowNanos).ifPresent(this::add);
        }
        if (count(Operator.Kind.REGION_BALANCE) < cluster.config().regionScheduleLimit()) {
            Balancers.balanceRegions(cluster, operators::containsKey, newPeerId, nowNanos).ifPresent(this::add);
        }
    }

    /** Drops operators that timed out even though their region stopped reporting. */
    public void expire(long nowNanos, long timeoutNanos, Map<Long, RegionView> regions) {
        for (Operator operator : List.copyOf(operators.values())) {
            RegionView region = regions.get(operator.regionId());
            if (region == null) {
                operator.cancel();
                end(operator);
            } else if (operator.advance(region.region(), region.leader(), nowNanos, timeoutNanos).isEmpty()) {
                end(operator);
            }
        }
    }

    boolean add(Operator operator) {
        if (operators.putIfAbsent(operator.regionId(), operator) != null) {
            return false;
        }
        LOG.info("created {}", operator);
        listener.created(operator);
        return true;
    }

    private void end(Operator operator) {
        if (operators.remove(operator.regionId(), operator)) {
            LOG.info("{} {}", operator.status().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '), operator);
            listener.ended(operator);
        }
    }

    public Optional<Operator> operator(long regionId) {
        return Optional.ofNullable(operators.get(regionId));
    }

    public List<Operator> operators() {
        return List.copyOf(operators.values());
    }

    public int count(Operator.Kind kind) {
        return (int) operators.values().stream().filter(operator -> operator.kind() == kind).count();
    }

    /** Forgets every operator: a new leader starts scheduling from what it sees. */
    public void clear() {
        operators.clear();
    }
}
