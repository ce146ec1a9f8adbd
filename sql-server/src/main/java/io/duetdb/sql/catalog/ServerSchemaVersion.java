package io.duetdb.sql.catalog;

import static java.util.Objects.requireNonNull;

/**
 * One SQL server's registration in the catalog: the schema version it has loaded and when it last said so
 * ({@code reportedAtMillis}, the physical part of the reporting transaction's start timestamp, so every server
 * reads ages on the oracle's clock). {@code version} is -1 until the server has loaded a schema.
 */
public record ServerSchemaVersion(String serverId, String label, long version, long reportedAtMillis) {
    public ServerSchemaVersion {
        requireNonNull(serverId, "serverId is null");
        requireNonNull(label, "label is null");
    }
}
