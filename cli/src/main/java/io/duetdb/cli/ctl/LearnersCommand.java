package io.duetdb.cli.ctl;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.StoreLabel;
import io.duetdb.proto.placement.PlacementRule;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.placement.StoreInfo;
import picocli.CommandLine.Command;

/**
 * The column learners' freshness: each learner's replicas with their replication lag (entries committed but not
 * applied, and for how long) from the learner's /status, and per table with columnar replicas the worst lag over
 * the regions of its key range.
 */
@Command(name = "learners", description = "Column learners' replicas and replication lag, per region and per table.")
final class LearnersCommand extends PlacementQuery {
    private static final String TABLE_RULE_PREFIX = "columnar-table-";
    private static final Duration STATUS_TIMEOUT = Duration.ofSeconds(3);

    private final ObjectMapper mapper = new ObjectMapper();

    @Override
    Object query(PlacementClient client) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(STATUS_TIMEOUT).build();
        List<Map<String, Object>> learners = new ArrayList<>();
        Map<Long, Region> regions = new LinkedHashMap<>();
        List<Map<String, Object>> replicas = new ArrayList<>();
        for (StoreInfo store : client.getAllStores()) {
            if (!isLearner(store)) {
                continue;
            }
            Map<String, Object> learner = new LinkedHashMap<>();
            learner.put("store_id", store.getStore().getId());
            learner.put("address", store.getStore().getAddress());
            learner.put("status_address", store.getStore().getStatusAddress());
            Optional<JsonNode> status = status(http, store.getStore().getStatusAddress());
            learner.put("reachable", status.isPresent());
            List<Map<String, Object>> own = new ArrayList<>();
            if (status.isPresent()) {
                for (JsonNode replica : status.get().path("replicas")) {
                    Map<String, Object> entry = new LinkedHashMap<>();
                    long regionId = replica.path("region_id").asLong();
                    entry.put("region_id", regionId);
                    entry.put("applied_index", replica.path("applied_index").asLong());
                    entry.put("commit_index", replica.path("commit_index").asLong());
                    entry.put("lag_entries", replica.path("lag_entries").asLong());
                    entry.put("lag_seconds", replica.path("lag_seconds").asDouble());
                    entry.put("delta_versions", replica.path("delta_versions").asLong());
                    entry.put("stable_versions", replica.path("stable_versions").asLong());
                    own.add(entry);
                    replicas.add(entry);
                    client.getRegionById(regionId).map(RegionInfo::getRegion).ifPresent(region -> regions.put(regionId, region));
                }
            }
            learner.put("replicas", own);
            learners.add(learner);
        }
        List<Map<String, Object>> tables = new ArrayList<>();
        for (PlacementRule rule : client.getPlacementRules()) {
            if (!rule.getId().startsWith(TABLE_RULE_PREFIX)) {
                continue;
            }
            byte[] start = rule.getStartKey().toByteArray();
            byte[] end = rule.getEndKey().toByteArray();
            long worstEntries = 0;
            double worstSeconds = 0;
            int covered = 0;
            for (Map<String, Object> replica : replicas) {
                Region region = regions.get((Long) replica.get("region_id"));
                if (region == null || !overlaps(region, start, end)) {
                    continue;
                }
                covered++;
                worstEntries = Math.max(worstEntries, (Long) replica.get("lag_entries"));
                worstSeconds = Math.max(worstSeconds, (Double) replica.get("lag_seconds"));
            }
            Map<String, Object> table = new LinkedHashMap<>();
            table.put("table_id", Long.parseLong(rule.getId().substring(TABLE_RULE_PREFIX.length())));
            table.put("replica_count", rule.getCount());
            table.put("learner_replicas", covered);
            table.put("max_lag_entries", worstEntries);
            table.put("max_lag_seconds", worstSeconds);
            tables.add(table);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("learners", learners);
        json.put("tables", tables);
        return json;
    }

    private static boolean isLearner(StoreInfo store) {
        for (StoreLabel label : store.getStore().getLabelsList()) {
            if (label.getKey().equals("engine") && label.getValue().equals("columnar")) {
                return true;
            }
        }
        return false;
    }

    private static boolean overlaps(Region region, byte[] start, byte[] end) {
        byte[] regionStart = region.getStartKey().toByteArray();
        byte[] regionEnd = region.getEndKey().toByteArray();
        boolean endsAfterStart = regionEnd.length == 0 || Arrays.compareUnsigned(regionEnd, start) > 0;
        boolean startsBeforeEnd = end.length == 0 || Arrays.compareUnsigned(regionStart, end) < 0;
        return endsAfterStart && startsBeforeEnd;
    }

    private Optional<JsonNode> status(HttpClient http, String address) {
        if (address.isEmpty()) {
            return Optional.empty();
        }
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://" + address + "/status"))
                    .timeout(STATUS_TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.of(mapper.readTree(response.body())) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
