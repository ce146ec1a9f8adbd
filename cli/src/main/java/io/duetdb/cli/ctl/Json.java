package io.duetdb.cli.ctl;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.google.protobuf.ByteString;

import io.duetdb.common.keys.Keys;
import io.duetdb.common.time.Timestamp;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.Store;
import io.duetdb.proto.meta.StoreLabel;
import io.duetdb.proto.placement.Member;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.placement.StoreInfo;

/** How ctl renders cluster objects: stable field names, keys in hex with a readable form beside them. */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }

    static void print(PrintWriter out, Object value) {
        try {
            out.println(MAPPER.writeValueAsString(value));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, Object> member(Member member, String leaderName) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", member.getName());
        json.put("client_address", member.getClientAddress());
        json.put("peer_address", member.getPeerAddress());
        json.put("status_address", member.getStatusAddress());
        json.put("version", member.getVersion());
        json.put("is_leader", member.getName().equals(leaderName));
        return json;
    }

    static Map<String, Object> timestamp(Timestamp timestamp) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("timestamp", timestamp.packed());
        json.put("physical", timestamp.physical());
        json.put("logical", timestamp.logical());
        json.put("physical_time", timestamp.physicalInstant().toString());
        return json;
    }

    static Map<String, Object> store(StoreInfo info) {
        Store store = info.getStore();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", store.getId());
        json.put("address", store.getAddress());
        json.put("status_address", store.getStatusAddress());
        json.put("version", store.getVersion());
        Map<String, String> labels = new LinkedHashMap<>();
        for (StoreLabel label : store.getLabelsList()) {
            labels.put(label.getKey(), label.getValue());
        }
        json.put("labels", labels);
        // Stores labelled engine=columnar are column learners: placement gives them learner replicas only.
        json.put("role", "columnar".equals(labels.get("engine")) ? "learner" : "row");
        json.put("state", store.getState().name());
        json.put("liveness", info.getLiveness().name());
        json.put("last_heartbeat_age_ms", info.getLastHeartbeatAgeMs());
        json.put("region_count", info.getStats().getRegionCount());
        json.put("leader_count", info.getStats().getLeaderCount());
        json.put("capacity_bytes", info.getStats().getCapacityBytes());
        json.put("available_bytes", info.getStats().getAvailableBytes());
        json.put("used_bytes", info.getStats().getUsedBytes());
        return json;
    }

    static Map<String, Object> region(RegionInfo info) {
        Region region = info.getRegion();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", region.getId());
        json.put("start_key", hex(region.getStartKey()));
        json.put("end_key", hex(region.getEndKey()));
        json.put("range", "[" + readable(region.getStartKey(), "-inf") + ", " + readable(region.getEndKey(), "+inf") + ")");
        json.put("epoch", Map.of("conf_version", region.getEpoch().getConfVersion(),
                "version", region.getEpoch().getVersion()));
        List<Map<String, Object>> peers = new ArrayList<>();
        for (Peer peer : region.getPeersList()) {
            peers.add(peer(peer));
        }
        json.put("peers", peers);
        json.put("leader", info.hasLeader() ? peer(info.getLeader()) : null);
        json.put("down_peers", info.getDownPeersList().stream().map(Peer::getId).toList());
        json.put("pending_peers", info.getPendingPeersList().stream().map(Peer::getId).toList());
        json.put("approximate_size", info.getApproximateSize());
        json.put("approximate_keys", info.getApproximateKeys());
        return json;
    }

    private static Map<String, Object> peer(Peer peer) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", peer.getId());
        json.put("store_id", peer.getStoreId());
        json.put("role", peer.getRole().name());
        return json;
    }

    private static String hex(ByteString key) {
        return HexFormat.of().withUpperCase().formatHex(key.toByteArray());
    }

    private static String readable(ByteString key, String whenEmpty) {
        return key.isEmpty() ? whenEmpty : Keys.describe(key.toByteArray());
    }
}
