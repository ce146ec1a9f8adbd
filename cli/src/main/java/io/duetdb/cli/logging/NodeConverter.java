package io.duetdb.cli.logging;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * {@code %node}: the component and node a log line comes from, as "placement/pd-1". Taken from the
 * logging context our own threads carry, or else read off the thread name, which Ratis and our thread
 * factories start with the node id, or else off the start of the message.
 */
public final class NodeConverter extends ClassicConverter {
    private static final Pattern NODE_IN_THREAD = Pattern.compile("^(pd|store|learner|sql)-\\d+");
    private static final Map<String, String> COMPONENTS = Map.of(
            "pd", "placement", "store", "storage", "learner", "learner", "sql", "sql");

    @Override
    public String convert(ILoggingEvent event) {
        Map<String, String> context = event.getMDCPropertyMap();
        String node = context.get("node");
        String component = context.get("component");
        if (node == null) {
            // Ratis names its own threads after the peer, and starts its messages with the peer id.
            Matcher matcher = NODE_IN_THREAD.matcher(event.getThreadName());
            if (!matcher.find()) {
                matcher = NODE_IN_THREAD.matcher(String.valueOf(event.getFormattedMessage()));
                if (!matcher.find()) {
                    return "-";
                }
            }
            node = matcher.group();
            component = COMPONENTS.get(matcher.group(1));
        }
        return component == null ? node : component + "/" + node;
    }
}
