package io.duetdb.cli.ctl;

import java.util.LinkedHashMap;
import java.util.Map;

import io.duetdb.client.kv.RawKvClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "put", description = "Write a key; answers once the write is replicated.")
final class RawPutCommand extends RawQuery {
    @Parameters(index = "0", paramLabel = "KEY")
    String key;

    @Parameters(index = "1", paramLabel = "VALUE")
    String value;

    @Override
    Object run(RawKvClient client) {
        byte[] keyBytes = bytes(key);
        client.put(keyBytes, bytes(value));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("put", display(keyBytes));
        return json;
    }
}
