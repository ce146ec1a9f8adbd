package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import io.duetdb.sql.catalog.AuthenticationPlugin;

/**
 * The server's configuration that sessions see: as system variables (max_allowed_packet,
 * default_authentication_plugin) and as the plugin of accounts created without one.
 */
public record ServerSettings(long maxAllowedPacket, AuthenticationPlugin defaultAuthenticationPlugin) {
    public ServerSettings {
        requireNonNull(defaultAuthenticationPlugin, "defaultAuthenticationPlugin is null");
    }
}
