package io.duetdb.sql.server;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.placement.PlacementReadiness;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.status.Readiness;
import io.duetdb.common.status.Readiness.Check;
import io.duetdb.common.status.Readiness.NotReady;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.sql.catalog.Catalog;

/**
 * What a SQL server waits for before it serves, in order: placement's members and leader, a cluster that a
 * store has bootstrapped, a leader for its first region (live stores holding its replicas), and the catalog,
 * which the first server to get there bootstraps. The catalog bootstrap is a DDL step under the schema-version
 * lock, so of several servers starting together exactly one creates the default database and account.
 */
final class ClusterReadiness implements Check<Void> {
    static final String CLUSTER_BOOTSTRAP = "cluster bootstrap";
    static final String FIRST_REGION_LEADER = "first region leader";
    static final String CATALOG_BOOTSTRAP = "catalog bootstrap";
    /** Generous: a member that answers slowly (a loaded host) still counts as answering. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    private static final byte[] FIRST_KEY = new byte[0];

    private final List<HostAndPort> pd;
    private final PlacementClient placement;
    private final Catalog catalog;
    private final Readiness readiness;

    ClusterReadiness(List<HostAndPort> pd, PlacementClient placement, Catalog catalog, Readiness readiness) {
        this.pd = List.copyOf(requireNonNull(pd, "pd is null"));
        this.readiness = requireNonNull(readiness, "readiness is null");
        this.placement = requireNonNull(placement, "placement is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    @Override
    public Void attempt() throws NotReady {
        PlacementReadiness.check(pd, PROBE_TIMEOUT);
        RegionInfo region;
        try {
            region = placement.getRegion(FIRST_KEY).orElseThrow(() -> new NotReady(CLUSTER_BOOTSTRAP,
                    "no store has registered with placement yet; the first one to register bootstraps the cluster"));
        } catch (DuetException e) {
            throw notReadyOrFatal(PlacementReadiness.LEADER, e);
        }
        if (!region.hasLeader() || region.getLeader().getStoreId() == 0) {
            throw new NotReady(FIRST_REGION_LEADER, "region " + region.getRegion().getId() + " has voters on stores "
                    + voterStores(region) + "; none has reported leading it yet");
        }
        readiness.waitingFor(CATALOG_BOOTSTRAP, "bootstrapping the catalog if no server has, then loading it");
        try {
            catalog.start();
        } catch (DuetException e) {
            throw notReadyOrFatal(CATALOG_BOOTSTRAP, e);
        }
        return null;
    }

    private static String voterStores(RegionInfo region) {
        return region.getRegion().getPeersList().stream().filter(peer -> peer.getRole() == PeerRole.VOTER)
                .map(Peer::getStoreId).map(String::valueOf).collect(Collectors.joining(", "));
    }

    /** A cluster still coming up answers with timeouts and unavailable regions; a foreign cluster is fatal. */
    private static NotReady notReadyOrFatal(String what, DuetException error) {
        if (error.code() == ErrorCode.CLUSTER_ID_MISMATCH || error.code() == ErrorCode.INVALID_CONFIG) {
            throw error;
        }
        return new NotReady(what, error.getMessage());
    }
}
