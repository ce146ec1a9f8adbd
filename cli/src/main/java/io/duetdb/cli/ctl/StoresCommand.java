package io.duetdb.cli.ctl;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.proto.placement.StoreInfo;
import picocli.CommandLine.Command;

@Command(name = "stores", description = "Every store with its state, liveness, and region and leader counts.")
final class StoresCommand extends PlacementQuery {
    @Override
    Object query(PlacementClient client) {
        List<StoreInfo> stores = client.getAllStores();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("count", stores.size());
        json.put("stores", stores.stream().map(Json::store).toList());
        return json;
    }
}
