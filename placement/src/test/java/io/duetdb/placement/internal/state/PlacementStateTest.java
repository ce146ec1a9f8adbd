package io.duetdb.placement.internal.state;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;

import io.duetdb.placement.internal.proto.Bootstrap;
import io.duetdb.placement.internal.proto.ExtendTso;
import io.duetdb.placement.internal.proto.PlacementCommand;
import io.duetdb.placement.internal.proto.PlacementCommandResult;
import io.duetdb.placement.internal.proto.PutRegion;
import io.duetdb.placement.internal.proto.PutRule;
import io.duetdb.placement.internal.proto.PutStore;
import io.duetdb.placement.internal.proto.ReserveIds;
import io.duetdb.placement.internal.proto.ReserveTso;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.RegionEpoch;
import io.duetdb.proto.meta.Store;
import io.duetdb.proto.meta.StoreState;
import io.duetdb.proto.placement.ErrorType;
import io.duetdb.proto.placement.PlacementRule;

class PlacementStateTest {
    private final PlacementState state = new PlacementState();

    private PlacementCommandResult apply(PlacementCommand.Builder command) {
        return state.apply(command.build());
    }

    static Region region(long id, String start, String end, long confVersion, long version) {
        return Region.newBuilder().setId(id).setStartKey(ByteString.copyFromUtf8(start))
                .setEndKey(ByteString.copyFromUtf8(end))
                .setEpoch(RegionEpoch.newBuilder().setConfVersion(confVersion).setVersion(version))
                .addPeers(Peer.newBuilder().setId(id * 10).setStoreId(1).setRole(PeerRole.VOTER)).build();
    }

    private PlacementCommandResult putRegion(Region region) {
        return apply(PlacementCommand.newBuilder().setPutRegion(PutRegion.newBuilder().setRegion(region)));
    }

    @Test
    void newTsoWindowStartsAboveEveryEarlierWindow() {
        PlacementCommandResult first = apply(PlacementCommand.newBuilder()
                .setReserveTso(ReserveTso.newBuilder().setLeaderNowMs(1_000).setWindowMs(3_000)));
        assertThat(first.getTsoStartMs()).isEqualTo(1_000);
        assertThat(first.getTsoLimitMs()).isEqualTo(4_000);
        apply(PlacementCommand.newBuilder().setExtendTso(ExtendTso.newBuilder().setLeaderNowMs(2_500).setWindowMs(3_000)));
        assertThat(state.tsoLimitMillis()).isEqualTo(5_500);
        // An extension from a lagging clock never moves the limit back.
        apply(PlacementCommand.newBuilder().setExtendTso(ExtendTso.newBuilder().setLeaderNowMs(100).setWindowMs(3_000)));
        assertThat(state.tsoLimitMillis()).isEqualTo(5_500);
        // A new leader whose clock is behind still starts at the old limit.
        PlacementCommandResult next = apply(PlacementCommand.newBuilder()
                .setReserveTso(ReserveTso.newBuilder().setLeaderNowMs(2_000).setWindowMs(3_000)));
        assertThat(next.getTsoStartMs()).isEqualTo(5_500);
        assertThat(next.getTsoLimitMs()).isEqualTo(8_500);
    }

    @Test
    void gcSafePointOnlyMovesForwardAndWaitsForLiveServices() {
        PlacementCommand.Builder advance = PlacementCommand.newBuilder().setAdvanceGcSafePoint(
                io.duetdb.placement.internal.proto.AdvanceGcSafePoint.newBuilder().setSafePoint(100).setNowMs(1_000));
        assertThat(apply(advance).getGcSafePoint()).isEqualTo(100);
        assertThat(apply(PlacementCommand.newBuilder().setAdvanceGcSafePoint(io.duetdb.placement.internal.proto
                .AdvanceGcSafePoint.newBuilder().setSafePoint(50).setNowMs(1_000))).getGcSafePoint()).isEqualTo(100);
        assertThat(apply(servicePoint("reader", 150, 5_000)).hasError()).isFalse();
        assertThat(apply(servicePoint("late", 90, 5_000)).getError().getType()).isEqualTo(ErrorType.INVALID_ARGUMENT);
        assertThat(apply(PlacementCommand.newBuilder().setAdvanceGcSafePoint(io.duetdb.placement.internal.proto
                .AdvanceGcSafePoint.newBuilder().setSafePoint(300).setNowMs(2_000))).getGcSafePoint()).isEqualTo(150);
        PlacementState restored = new PlacementState();
        restored.restore(state.toSnapshot());
        assertThat(restored.gcSafePoint()).isEqualTo(150);
        assertThat(restored.serviceSafePoints()).hasSize(1);
        // Once the service's entry expires it no longer holds the safe point back.
        assertThat(apply(PlacementCommand.newBuilder().setAdvanceGcSafePoint(io.duetdb.placement.internal.proto
                .AdvanceGcSafePoint.newBuilder().setSafePoint(300).setNowMs(6_000))).getGcSafePoint()).isEqualTo(300);
        assertThat(state.serviceSafePoints()).isEmpty();
    }

    private static PlacementCommand.Builder servicePoint(String service, long safePoint, long expiresAt) {
        return PlacementCommand.newBuilder().setPutServiceSafePoint(io.duetdb.placement.internal.proto.PutServiceSafePoint
                .newBuilder().setEntry(io.duetdb.proto.placement.ServiceSafePoint.newBuilder().setServiceId(service)
                        .setSafePoint(safePoint).setExpiresAtMs(expiresAt)));
    }

    @Test
    void idWindowsNeverOverlap() {
        long a = apply(PlacementCommand.newBuilder().setReserveIds(ReserveIds.newBuilder().setCount(1000))).getFirstId();
        long b = apply(PlacementCommand.newBuilder().setReserveIds(ReserveIds.newBuilder().setCount(5))).getFirstId();
        assertThat(a).isEqualTo(1);
        assertThat(b).isEqualTo(1001);
        assertThat(apply(PlacementCommand.newBuilder().setReserveIds(ReserveIds.newBuilder().setCount(0))).getError().getType())
                .isEqualTo(ErrorType.INVALID_ARGUMENT);
    }

    @Test
    void staleHeartbeatsNeverOverwriteNewerRegions() {
        assertThat(putRegion(region(1, "", "", 1, 1)).hasError()).isFalse();
        // Split: region 1 keeps [ , m) at version 2, region 2 takes [m, ) at version 2. The new half reports first.
        assertThat(putRegion(region(2, "m", "", 1, 2)).hasError()).isFalse();
        assertThat(state.region(1)).isEmpty();
        // A late report of region 1 from before the split is stale: it overlaps a newer version.
        PlacementCommandResult late = putRegion(region(1, "", "", 1, 1));
        assertThat(late.getError().getType()).isEqualTo(ErrorType.STALE_REGION);
        assertThat(putRegion(region(1, "", "m", 1, 2)).hasError()).isFalse();
        assertThat(state.regionContaining("a".getBytes()).orElseThrow().getId()).isEqualTo(1);
        assertThat(state.regionContaining("z".getBytes()).orElseThrow().getId()).isEqualTo(2);

        // A membership change raises conf version; an older conf version of the same region is stale.
        assertThat(putRegion(region(2, "m", "", 3, 2)).hasError()).isFalse();
        assertThat(putRegion(region(2, "m", "", 2, 2)).getError().getType()).isEqualTo(ErrorType.STALE_REGION);
        assertThat(putRegion(region(2, "m", "", 3, 1)).getError().getType()).isEqualTo(ErrorType.STALE_REGION);
        assertThat(state.region(2).orElseThrow().getEpoch().getConfVersion()).isEqualTo(3);

        // Merge: region 1 absorbs region 2 with a higher version; region 2 disappears.
        assertThat(putRegion(region(1, "", "", 3, 3)).hasError()).isFalse();
        assertThat(state.regions()).extracting(Region::getId).containsExactly(1L);
        assertThat(putRegion(region(2, "m", "", 3, 2)).getError().getType()).isEqualTo(ErrorType.STALE_REGION);
    }

    @Test
    void invalidRegionsAreRejected() {
        assertThat(putRegion(region(0, "", "", 1, 1)).getError().getType()).isEqualTo(ErrorType.INVALID_ARGUMENT);
        assertThat(putRegion(region(5, "z", "a", 1, 1)).getError().getType()).isEqualTo(ErrorType.INVALID_ARGUMENT);
    }

    @Test
    void bootstrapHappensOnce() {
        Region first = region(1, "", "", 1, 1);
        assertThat(apply(PlacementCommand.newBuilder().setBootstrap(Bootstrap.newBuilder().setRegion(first))).hasError()).isFalse();
        assertThat(state.bootstrapped()).isTrue();
        assertThat(apply(PlacementCommand.newBuilder().setBootstrap(Bootstrap.newBuilder().setRegion(first))).hasError()).isTrue();
        assertThat(apply(PlacementCommand.newBuilder().setBootstrap(Bootstrap.newBuilder()
                .setRegion(region(7, "a", "", 1, 1)))).hasError()).isTrue();
    }

    @Test
    void storesKeepUniqueAddressesAndTombstonesStayDead() {
        Store store = Store.newBuilder().setId(1).setAddress("127.0.0.1:20160").build();
        PlacementCommandResult put = apply(PlacementCommand.newBuilder().setPutStore(PutStore.newBuilder().setStore(store)));
        assertThat(put.getStore().getState()).isEqualTo(StoreState.SERVING);
        PlacementCommandResult clash = apply(PlacementCommand.newBuilder().setPutStore(PutStore.newBuilder()
                .setStore(store.toBuilder().setId(2))));
        assertThat(clash.getError().getType()).isEqualTo(ErrorType.DUPLICATE_STORE_ADDRESS);
        apply(PlacementCommand.newBuilder().setPutStore(PutStore.newBuilder().setStore(store.toBuilder().setState(StoreState.TOMBSTONE))));
        assertThat(apply(PlacementCommand.newBuilder().setPutStore(PutStore.newBuilder().setStore(store))).getError().getType())
                .isEqualTo(ErrorType.STORE_TOMBSTONE);
        // Its address is free again for a new store.
        assertThat(apply(PlacementCommand.newBuilder().setPutStore(PutStore.newBuilder()
                .setStore(store.toBuilder().setId(3)))).hasError()).isFalse();
    }

    @Test
    void snapshotsRestoreEverything() {
        putRegion(region(1, "", "k", 1, 2));
        putRegion(region(2, "k", "", 1, 2));
        apply(PlacementCommand.newBuilder().setReserveIds(ReserveIds.newBuilder().setCount(10)));
        apply(PlacementCommand.newBuilder().setPutStore(PutStore.newBuilder().setStore(Store.newBuilder().setId(4).setAddress("h:1"))));
        apply(PlacementCommand.newBuilder().setPutRule(PutRule.newBuilder().setRule(PlacementRule.newBuilder().setId("r")
                .setRole(PeerRole.LEARNER).setCount(1))));
        PlacementState restored = new PlacementState();
        restored.restore(state.toSnapshot());
        assertThat(restored.toSnapshot()).isEqualTo(state.toSnapshot());
        assertThat(restored.regionContaining("z".getBytes()).orElseThrow().getId()).isEqualTo(2);
    }

    @Test
    void rulesAreValidated() {
        PlacementCommandResult voterRule = apply(PlacementCommand.newBuilder().setPutRule(PutRule.newBuilder()
                .setRule(PlacementRule.newBuilder().setId("v").setRole(PeerRole.VOTER).setCount(1))));
        assertThat(voterRule.getError().getMessage()).contains("only LEARNER rules");
        PlacementCommandResult noCount = apply(PlacementCommand.newBuilder().setPutRule(PutRule.newBuilder()
                .setRule(PlacementRule.newBuilder().setId("l").setRole(PeerRole.LEARNER))));
        assertThat(noCount.getError().getType()).isEqualTo(ErrorType.INVALID_ARGUMENT);
    }
}
