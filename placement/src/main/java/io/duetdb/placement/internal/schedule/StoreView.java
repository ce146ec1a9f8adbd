package io.duetdb.placement.internal.schedule;

import static java.util.Objects.requireNonNull;

import io.duetdb.proto.meta.Store;
import io.duetdb.proto.meta.StoreLabel;
import io.duetdb.proto.meta.StoreState;
import io.duetdb.proto.placement.StoreLiveness;

/** A store as the schedulers see it: metadata, liveness, and how many replicas and leaders it holds. */
public record StoreView(Store store, StoreLiveness liveness, int regionCount, int leaderCount) {
    /** Stores with this label hold only learners (column learners, like TiFlash's engine=tiflash). */
    public static final String ENGINE_LABEL = "engine";
    public static final String COLUMNAR_ENGINE = "columnar";

    public StoreView {
        requireNonNull(store, "store is null");
        requireNonNull(liveness, "liveness is null");
    }

    public long id() {
        return store.getId();
    }

    public boolean isColumnar() {
        return COLUMNAR_ENGINE.equals(label(ENGINE_LABEL));
    }

    public String label(String key) {
        for (StoreLabel label : store.getLabelsList()) {
            if (label.getKey().equals(key)) {
                return label.getValue();
            }
        }
        return null;
    }

    /** Up, serving, and able to take new replicas. */
    public boolean acceptsReplicas() {
        return liveness == StoreLiveness.UP && store.getState() == StoreState.SERVING;
    }

    public boolean acceptsVoters() {
        return acceptsReplicas() && !isColumnar();
    }

    /** Its replicas must move elsewhere: down for too long, or being drained. */
    public boolean mustBeVacated() {
        return liveness == StoreLiveness.DOWN || store.getState() == StoreState.OFFLINE
                || store.getState() == StoreState.TOMBSTONE;
    }
}
