package io.duetdb.cli.ctl;

import java.util.LinkedHashMap;
import java.util.Map;

import io.duetdb.client.kv.RawKvClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "delete", description = "Delete a key.")
final class RawDeleteCommand extends RawQuery {
    @Parameters(paramLabel = "KEY")
    String key;

    @Override
    Object run(RawKvClient client) {
        byte[] keyBytes = bytes(key);
        client.delete(keyBytes);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("deleted", display(keyBytes));
        return json;
    }
}
