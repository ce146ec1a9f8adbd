package io.duetdb.cli.ctl;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import io.duetdb.client.kv.RawKvClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "get", description = "Print a key's value (null when absent).")
final class RawGetCommand extends RawQuery {
    @Parameters(paramLabel = "KEY")
    String key;

    @Override
    Object run(RawKvClient client) {
        byte[] keyBytes = bytes(key);
        Optional<byte[]> value = client.get(keyBytes);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("key", display(keyBytes));
        json.put("value", value.map(RawQuery::display).orElse(null));
        return json;
    }
}
