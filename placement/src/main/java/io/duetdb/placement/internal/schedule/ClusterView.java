package io.duetdb.placement.internal.schedule;

import static java.util.Objects.requireNonNull;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import io.duetdb.proto.placement.PlacementRule;

/** What one scheduling decision sees: every store, every region, the rules and the knobs. */
public record ClusterView(Map<Long, StoreView> stores, List<RegionView> regions, List<PlacementRule> rules,
        SchedulingConfig config) {
    public ClusterView {
        stores = Map.copyOf(requireNonNull(stores, "stores is null"));
        regions = List.copyOf(requireNonNull(regions, "regions is null"));
        rules = List.copyOf(requireNonNull(rules, "rules is null"));
        requireNonNull(config, "config is null");
    }

    public Optional<StoreView> store(long id) {
        return Optional.ofNullable(stores.get(id));
    }

    /** The least loaded store that passes the filter and holds no replica of the region. */
    public Optional<StoreView> bestTarget(RegionView region, Predicate<StoreView> filter) {
        return stores.values().stream()
                .filter(filter)
                .filter(store -> region.peerOn(store.id()).isEmpty())
                .min(Comparator.comparingInt(StoreView::regionCount).thenComparingLong(StoreView::id));
    }
}
