package io.duetdb.cli.ctl;

import java.util.LinkedHashMap;
import java.util.Map;

import io.duetdb.client.kv.RawKvClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "scan", description = "Print the pairs in [start, end) in key order (or reversed).")
final class RawScanCommand extends RawQuery {
    @Option(names = "--start", paramLabel = "KEY", defaultValue = "", description = "first key (default: the beginning)")
    String start;

    @Option(names = "--end", paramLabel = "KEY", defaultValue = "", description = "key after the last (default: the end)")
    String end;

    @Option(names = "--limit", defaultValue = "100", description = "at most this many pairs, up to 10000 (default: ${DEFAULT-VALUE})")
    int limit;

    @Option(names = "--reverse", description = "from the end of the range backwards")
    boolean reverse;

    @Override
    Object run(RawKvClient client) {
        if (limit < 1 || limit > 10_000) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--limit must be between 1 and 10000");
        }
        Map<String, Object> pairs = new LinkedHashMap<>();
        client.scan(bytes(start), bytes(end), limit, reverse)
                .forEach(pair -> pairs.put(display(pair.getKey().toByteArray()), display(pair.getValue().toByteArray())));
        return pairs;
    }
}
