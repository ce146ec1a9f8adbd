package io.duetdb.cli.ctl;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.proto.placement.StoreInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(name = "stores", description = "Every store with its state, liveness, and region and leader counts.")
final class StoresCommand implements Callable<Integer> {
    @ParentCommand
    CtlCommand ctl;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (PlacementClient client = ctl.connect()) {
            List<StoreInfo> stores = client.getAllStores();
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("count", stores.size());
            json.put("stores", stores.stream().map(Json::store).toList());
            Json.print(spec.commandLine().getOut(), json);
        }
        return 0;
    }
}
