package io.duetdb.common.region;

import java.util.List;

import com.google.protobuf.ByteString;

import io.duetdb.proto.kv.DiskFull;
import io.duetdb.proto.kv.EpochNotMatch;
import io.duetdb.proto.kv.KeyNotInRegion;
import io.duetdb.proto.kv.NotLeader;
import io.duetdb.proto.kv.RegionError;
import io.duetdb.proto.kv.RegionIsMerging;
import io.duetdb.proto.kv.RegionNotFound;
import io.duetdb.proto.kv.ServerIsBusy;
import io.duetdb.proto.kv.StoreNotMatch;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.Region;

/** The typed region errors a store answers with. */
public final class RegionErrors {
    private RegionErrors() {
    }

    public static RegionError notLeader(long regionId, Peer leader) {
        NotLeader.Builder detail = NotLeader.newBuilder().setRegionId(regionId);
        if (leader != null) {
            detail.setLeader(leader);
        }
        return RegionError.newBuilder().setMessage("region " + regionId + " is not led by this store"
                + (leader == null ? " (leader unknown)" : "; store " + leader.getStoreId() + " leads it"))
                .setNotLeader(detail).build();
    }

    public static RegionError epochNotMatch(List<Region> current, String why) {
        return RegionError.newBuilder().setMessage(why)
                .setEpochNotMatch(EpochNotMatch.newBuilder().addAllCurrentRegions(current)).build();
    }

    public static RegionError regionNotFound(long regionId) {
        return RegionError.newBuilder().setMessage("region " + regionId + " is not on this store")
                .setRegionNotFound(RegionNotFound.newBuilder().setRegionId(regionId)).build();
    }

    public static RegionError keyNotInRegion(byte[] key, Region region) {
        return RegionError.newBuilder().setMessage("key is outside region " + region.getId())
                .setKeyNotInRegion(KeyNotInRegion.newBuilder().setKey(ByteString.copyFrom(key))
                        .setRegionId(region.getId()).setStartKey(region.getStartKey()).setEndKey(region.getEndKey()))
                .build();
    }

    public static RegionError serverIsBusy(String reason, long backoffMillis) {
        return RegionError.newBuilder().setMessage("server is busy: " + reason)
                .setServerIsBusy(ServerIsBusy.newBuilder().setReason(reason).setBackoffMs(backoffMillis)).build();
    }

    public static RegionError storeNotMatch(long requested, long actual) {
        return RegionError.newBuilder().setMessage("request for store " + requested + " reached store " + actual)
                .setStoreNotMatch(StoreNotMatch.newBuilder().setRequestStoreId(requested).setActualStoreId(actual)).build();
    }

    public static RegionError diskFull(long storeId, String reason) {
        return RegionError.newBuilder().setMessage("disk full on store " + storeId + ": " + reason)
                .setDiskFull(DiskFull.newBuilder().setStoreId(storeId).setReason(reason)).build();
    }

    public static RegionError merging(long regionId) {
        return RegionError.newBuilder().setMessage("region " + regionId + " is being merged")
                .setRegionIsMerging(RegionIsMerging.newBuilder().setRegionId(regionId)).build();
    }
}
