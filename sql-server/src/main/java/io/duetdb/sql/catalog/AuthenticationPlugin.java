package io.duetdb.sql.catalog;

import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** How an account proves its password at login: MySQL's two password plugins, stored under their MySQL names. */
public enum AuthenticationPlugin {
    MYSQL_NATIVE_PASSWORD("mysql_native_password"),
    CACHING_SHA2_PASSWORD("caching_sha2_password");

    private final String pluginName;

    AuthenticationPlugin(String pluginName) {
        this.pluginName = pluginName;
    }

    /** The name clients and statements use (and the catalog's JSON stores). */
    @JsonValue
    public String pluginName() {
        return pluginName;
    }

    public static Optional<AuthenticationPlugin> fromName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (AuthenticationPlugin plugin : values()) {
            if (plugin.pluginName.equals(lower)) {
                return Optional.of(plugin);
            }
        }
        return Optional.empty();
    }

    @JsonCreator
    static AuthenticationPlugin fromJson(String name) {
        return fromName(name).orElseThrow(() -> new IllegalArgumentException("unknown authentication plugin " + name));
    }
}
