package io.duetdb.cli.ctl;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.time.Timestamp;
import io.duetdb.proto.placement.GetGcSafePointResponse;
import io.duetdb.proto.placement.ServiceSafePoint;
import picocli.CommandLine.Command;

@Command(name = "gc", description = "Show the MVCC GC safe point, the GC life time and what holds the safe point back.")
final class GcCommand extends PlacementQuery {
    @Override
    Object query(PlacementClient client) {
        GetGcSafePointResponse response = client.getGcSafePoint();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("safe_point", response.getSafePoint() == 0 ? null : Json.timestamp(Timestamp.fromPacked(response.getSafePoint())));
        json.put("gc_life_time", java.time.Duration.ofMillis(response.getGcLifeTimeMs()).toString().substring(2).toLowerCase());
        List<Map<String, Object>> services = new ArrayList<>();
        for (ServiceSafePoint service : response.getServiceSafePointsList()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("service_id", service.getServiceId());
            entry.put("safe_point", Json.timestamp(Timestamp.fromPacked(service.getSafePoint())));
            entry.put("expires_at", Instant.ofEpochMilli(service.getExpiresAtMs()).toString());
            services.add(entry);
        }
        json.put("service_safe_points", services);
        return json;
    }
}
