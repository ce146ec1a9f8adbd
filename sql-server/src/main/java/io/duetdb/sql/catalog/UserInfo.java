package io.duetdb.sql.catalog;

import static java.util.Objects.requireNonNull;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * An account: user and host pattern ('%' for any host), its authentication plugin and stored password hash
 * (empty for no password), and its privileges globally, per database and per table ("db" and "db.table" in
 * lower case). The hash is what the plugin keeps: for mysql_native_password the hex of SHA1(SHA1(password)),
 * for caching_sha2_password a salted, iterated SHA-256 hash (see CachingSha2Password). Records written before
 * accounts had a plugin read as mysql_native_password.
 */
public record UserInfo(String user, String host, AuthenticationPlugin plugin, String passwordHash,
        Set<Privilege> global, Map<String, Set<Privilege>> databases, Map<String, Set<Privilege>> tables) {
    public UserInfo {
        requireNonNull(user, "user is null");
        requireNonNull(host, "host is null");
        plugin = plugin == null ? AuthenticationPlugin.MYSQL_NATIVE_PASSWORD : plugin;
        requireNonNull(passwordHash, "passwordHash is null");
        global = global.isEmpty() ? EnumSet.noneOf(Privilege.class) : EnumSet.copyOf(global);
        databases = copy(databases);
        tables = copy(tables);
    }

    private static Map<String, Set<Privilege>> copy(Map<String, Set<Privilege>> grants) {
        Map<String, Set<Privilege>> copy = new HashMap<>();
        grants.forEach((name, privileges) -> {
            if (!privileges.isEmpty()) {
                copy.put(name.toLowerCase(Locale.ROOT), EnumSet.copyOf(privileges));
            }
        });
        return copy;
    }

    public String account() {
        return "'" + user + "'@'" + host + "'";
    }

    public boolean matchesHost(String clientHost) {
        return host.equals("%") || host.equalsIgnoreCase(clientHost)
                || (host.equalsIgnoreCase("localhost") && (clientHost.equals("127.0.0.1") || clientHost.equals("::1")));
    }

    /** Whether the account holds {@code privilege} on the table (globally, on its database, or on it). */
    public boolean can(Privilege privilege, String database, String table) {
        if (global.contains(privilege)) {
            return true;
        }
        if (database != null && databases.getOrDefault(database.toLowerCase(Locale.ROOT), Set.of()).contains(privilege)) {
            return true;
        }
        return database != null && table != null && tables.getOrDefault(
                (database + "." + table).toLowerCase(Locale.ROOT), Set.of()).contains(privilege);
    }

    /** Whether the account holds any privilege on the database or on a table in it (what USE needs). */
    public boolean canUse(String database) {
        String lower = database.toLowerCase(Locale.ROOT);
        return !global.isEmpty() || databases.containsKey(lower)
                || tables.keySet().stream().anyMatch(name -> name.startsWith(lower + "."));
    }

    public UserInfo withPassword(AuthenticationPlugin newPlugin, String newHash) {
        return new UserInfo(user, host, newPlugin, newHash, global, databases, tables);
    }

    public UserInfo withGrants(Set<Privilege> newGlobal, Map<String, Set<Privilege>> newDatabases,
            Map<String, Set<Privilege>> newTables) {
        return new UserInfo(user, host, plugin, passwordHash, newGlobal, newDatabases, newTables);
    }
}
