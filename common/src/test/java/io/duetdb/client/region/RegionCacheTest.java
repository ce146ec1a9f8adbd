package io.duetdb.client.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.keys.KeyRanges;
import io.duetdb.common.time.Timestamp;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.RegionEpoch;
import io.duetdb.proto.meta.Store;
import io.duetdb.proto.meta.StoreState;
import io.duetdb.proto.placement.GetMembersResponse;
import io.duetdb.proto.placement.IdKind;
import io.duetdb.proto.placement.PlacementRule;
import io.duetdb.proto.placement.RegionHeartbeatRequest;
import io.duetdb.proto.placement.RegionHeartbeatResponse;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.placement.RegisterStoreResponse;
import io.duetdb.proto.placement.StoreInfo;
import io.duetdb.proto.placement.StoreStats;

class RegionCacheTest {
    /** Placement as a list of regions, counting lookups. */
    static final class FakePlacement implements PlacementClient {
        final List<Region> regions = new ArrayList<>();
        int regionLookups;
        int storeLookups;

        @Override
        public Optional<RegionInfo> getRegion(byte[] key) {
            regionLookups++;
            return regions.stream()
                    .filter(r -> KeyRanges.contains(r.getStartKey().toByteArray(), r.getEndKey().toByteArray(), key))
                    .findFirst().map(r -> RegionInfo.newBuilder().setRegion(r).setLeader(r.getPeers(0)).build());
        }

        @Override
        public Optional<StoreInfo> getStore(long storeId) {
            storeLookups++;
            return storeId == 404 ? Optional.empty() : Optional.of(StoreInfo.newBuilder()
                    .setStore(Store.newBuilder().setId(storeId).setAddress("h:" + storeId)).build());
        }

        @Override
        public long clusterId() {
            return 1;
        }

        @Override
        public Timestamp getTimestamp() {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Timestamp> getTimestampAsync() {
            throw new UnsupportedOperationException();
        }

        @Override
        public long allocateIds(IdKind kind, int count) {
            throw new UnsupportedOperationException();
        }

        @Override
        public GetMembersResponse getMembers() {
            throw new UnsupportedOperationException();
        }

        @Override
        public RegisterStoreResponse registerStore(Store store) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Store setStoreState(long storeId, StoreState state) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void storeHeartbeat(StoreStats stats) {
            throw new UnsupportedOperationException();
        }

        @Override
        public RegionHeartbeatResponse regionHeartbeat(RegionHeartbeatRequest request) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void reportSplit(List<Region> reported) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<StoreInfo> getAllStores() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<RegionInfo> getRegionById(long regionId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<RegionInfo> scanRegions(byte[] start, byte[] end, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void putPlacementRule(PlacementRule rule) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean deletePlacementRule(String ruleId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<PlacementRule> getPlacementRules() {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<Long> detectDeadlock(long waiterTs, long holderTs, long keyHash) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void cleanUpWaitFor(long waiterTs, long holderTs) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long updateServiceSafePoint(String serviceId, long safePoint, long ttlSeconds) {
            throw new UnsupportedOperationException();
        }

        @Override
        public io.duetdb.proto.placement.GetGcSafePointResponse getGcSafePoint() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }

    static Region region(long id, String start, String end, long version) {
        return Region.newBuilder().setId(id).setStartKey(ByteString.copyFromUtf8(start))
                .setEndKey(ByteString.copyFromUtf8(end)).setEpoch(RegionEpoch.newBuilder().setVersion(version))
                .addPeers(Peer.newBuilder().setId(id * 10).setStoreId(id)).build();
    }

    @Test
    void cachesRegionsUntilInvalidated() {
        FakePlacement placement = new FakePlacement();
        placement.regions.add(region(1, "", "m", 1));
        placement.regions.add(region(2, "m", "", 1));
        RegionCache cache = new RegionCache(placement);
        assertThat(cache.locate("a".getBytes()).region().getId()).isEqualTo(1);
        assertThat(cache.locate("b".getBytes()).region().getId()).isEqualTo(1);
        assertThat(cache.locate("z".getBytes()).region().getId()).isEqualTo(2);
        assertThat(placement.regionLookups).isEqualTo(2);
        cache.invalidate(1);
        cache.locate("a".getBytes());
        assertThat(placement.regionLookups).isEqualTo(3);
        assertThat(cache.locateRange("a".getBytes(), "zz".getBytes())).extracting(r -> r.region().getId())
                .containsExactly(1L, 2L);
        assertThat(cache.locateRange("a".getBytes(), "c".getBytes())).hasSize(1);
    }

    @Test
    void newerRegionsReplaceWhatTheyOverlap() {
        FakePlacement placement = new FakePlacement();
        placement.regions.add(region(1, "", "", 1));
        RegionCache cache = new RegionCache(placement);
        cache.locate("k".getBytes());
        // A store answered EpochNotMatch: region 1 split into [ , k) and [k, ).
        cache.updateRegions(List.of(region(1, "", "k", 2), region(3, "k", "", 2)));
        assertThat(cache.locate("z".getBytes()).region().getId()).isEqualTo(3);
        assertThat(cache.locate("a".getBytes()).region().getEpoch().getVersion()).isEqualTo(2);
        assertThat(placement.regionLookups).isEqualTo(1);
        cache.updateLeader(3, Peer.newBuilder().setId(99).setStoreId(7).build());
        assertThat(cache.cached(3).orElseThrow().leader().getId()).isEqualTo(99);
    }

    @Test
    void storesAreCachedAndUnknownOnesAreErrors() {
        FakePlacement placement = new FakePlacement();
        RegionCache cache = new RegionCache(placement);
        assertThat(cache.store(5).getStore().getAddress()).isEqualTo("h:5");
        cache.store(5);
        assertThat(placement.storeLookups).isEqualTo(1);
        cache.invalidateStore(5);
        cache.store(5);
        assertThat(placement.storeLookups).isEqualTo(2);
        assertThatThrownBy(() -> cache.store(404)).isInstanceOf(DuetException.class);
        assertThatThrownBy(() -> new RegionCache(new FakePlacement()).locate("x".getBytes()))
                .isInstanceOf(DuetException.class).hasMessageContaining("cluster not bootstrapped");
    }
}
