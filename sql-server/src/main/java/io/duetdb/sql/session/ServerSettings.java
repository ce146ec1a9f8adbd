package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import io.duetdb.sql.catalog.AuthenticationPlugin;

/**
 * The server's configuration that sessions see: as system variables (max_allowed_packet,
 * default_authentication_plugin), as the plugin of accounts created without one, and as the rows an index
 * backfill writes per transaction.
 */
public record ServerSettings(long maxAllowedPacket, AuthenticationPlugin defaultAuthenticationPlugin,
        int backfillBatchSize) {
    public ServerSettings {
        requireNonNull(defaultAuthenticationPlugin, "defaultAuthenticationPlugin is null");
        if (backfillBatchSize < 1) {
            throw new IllegalArgumentException("backfillBatchSize must be positive");
        }
    }
}
