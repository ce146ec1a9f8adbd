package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.duetdb.common.config.HostAndPort;

/**
 * What a catalog or a {@code format("duet")} read was configured with: the placement endpoints ({@code pd}), the
 * engines reads may use ({@code isolation_read_engines}, TiDB's and TiSpark's names: tikv for the row store, tiflash
 * for the column learners), how many bytes of answers a reader may hold at once, and how long a scan's snapshot is
 * protected from garbage collection, and whether filters and limits are pushed to the stores ({@code push_down},
 * off to compare results). Keys are read case-insensitively; catalog options come without their
 * {@code spark.sql.catalog.<name>.} prefix and session settings as {@code spark.duet.<key>}.
 */
public record ConnectorOptions(String placement, Set<ReadEngine> readEngines, long readerMemoryBytes,
        long snapshotLeaseSeconds, boolean pushDown) implements Serializable {
    public static final String PLACEMENT = "pd";
    public static final String READ_ENGINES = "isolation_read_engines";
    public static final String READER_MEMORY = "reader_memory_bytes";
    public static final String SNAPSHOT_LEASE = "snapshot_lease_seconds";
    public static final String PUSH_DOWN = "push_down";
    public static final String SESSION_PREFIX = "spark.duet.";
    /** A reader holds one region's answers at a time, and regions split at 384 MiB of rows. */
    public static final long DEFAULT_READER_MEMORY_BYTES = 1L << 30;
    public static final long DEFAULT_SNAPSHOT_LEASE_SECONDS = 3600;

    public ConnectorOptions {
        requireNonNull(placement, "placement is null");
        if (endpoints(placement).isEmpty()) {
            throw new IllegalArgumentException("option '" + PLACEMENT + "' is missing: the placement driver's"
                    + " host:port list (for example spark.sql.catalog.duet.pd=127.0.0.1:2379)");
        }
        readEngines = Set.copyOf(requireNonNull(readEngines, "readEngines is null"));
        if (readEngines.isEmpty()) {
            throw new IllegalArgumentException("option '" + READ_ENGINES + "' names no engine: use tikv, tiflash or both");
        }
        if (readerMemoryBytes <= 0) {
            throw new IllegalArgumentException("option '" + READER_MEMORY + "' must be positive: " + readerMemoryBytes);
        }
        if (snapshotLeaseSeconds <= 0) {
            throw new IllegalArgumentException("option '" + SNAPSHOT_LEASE + "' must be positive: " + snapshotLeaseSeconds);
        }
    }

    /** The options of {@code settings} (lower-case keys win over session settings, which win over defaults). */
    public static ConnectorOptions from(Map<String, String> options, Map<String, String> sessionSettings) {
        String placement = value(options, sessionSettings, PLACEMENT, null);
        if (placement == null || placement.isBlank()) {
            throw new IllegalArgumentException("option '" + PLACEMENT + "' is missing: the placement driver's host:port"
                    + " list (spark.sql.catalog.duet.pd=127.0.0.1:2379, or .option(\"pd\", ...) on a read)");
        }
        Set<ReadEngine> engines = EnumSet.noneOf(ReadEngine.class);
        for (String name : value(options, sessionSettings, READ_ENGINES, "tikv,tiflash").split(",")) {
            if (!name.isBlank()) {
                engines.add(ReadEngine.named(name.trim()));
            }
        }
        return new ConnectorOptions(String.join(",", endpoints(placement).stream().map(HostAndPort::toString).toList()), engines,
                longValue(options, sessionSettings, READER_MEMORY, DEFAULT_READER_MEMORY_BYTES),
                longValue(options, sessionSettings, SNAPSHOT_LEASE, DEFAULT_SNAPSHOT_LEASE_SECONDS),
                booleanValue(options, sessionSettings, PUSH_DOWN, true));
    }

    /** The placement endpoints. */
    public List<HostAndPort> endpoints() {
        return endpoints(placement);
    }

    private static List<HostAndPort> endpoints(String text) {
        List<HostAndPort> endpoints = new ArrayList<>();
        for (String endpoint : text.split(",")) {
            if (!endpoint.isBlank()) {
                endpoints.add(HostAndPort.parse(endpoint.trim()));
            }
        }
        return endpoints;
    }

    private static String value(Map<String, String> options, Map<String, String> sessionSettings, String key,
            String fallback) {
        for (Map.Entry<String, String> entry : options.entrySet()) {
            if (entry.getKey().equalsIgnoreCase(key)) {
                return entry.getValue();
            }
        }
        String session = sessionSettings.get(SESSION_PREFIX + key);
        return session != null ? session : fallback;
    }

    private static long longValue(Map<String, String> options, Map<String, String> sessionSettings, String key,
            long fallback) {
        String text = value(options, sessionSettings, key, null);
        if (text == null) {
            return fallback;
        }
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option '" + key + "' must be a number: '" + text + "'");
        }
    }

    private static boolean booleanValue(Map<String, String> options, Map<String, String> sessionSettings, String key,
            boolean fallback) {
        String text = value(options, sessionSettings, key, null);
        if (text == null) {
            return fallback;
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("option '" + key + "' must be true or false: '" + text + "'");
        };
    }

    /** The engines a read can use. */
    public enum ReadEngine {
        /** The row store's leaders. */
        TIKV,
        /** The column learners. */
        TIFLASH;

        static ReadEngine named(String name) {
            return switch (name.toLowerCase(Locale.ROOT)) {
                case "tikv" -> TIKV;
                case "tiflash" -> TIFLASH;
                default -> throw new IllegalArgumentException("unknown engine '" + name + "' in option '" + READ_ENGINES
                        + "': use tikv (the row store), tiflash (the column learners) or both");
            };
        }
    }
}
