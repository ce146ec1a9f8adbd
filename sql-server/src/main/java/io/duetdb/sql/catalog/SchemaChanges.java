package io.duetdb.sql.catalog;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.TableInfo;

/**
 * The definitions a DDL step wrote, as they read back from the catalog, so that the server that ran the step
 * holds the new schema the moment it commits without reading the whole catalog again: the step's schema (the
 * version it locked) with these changes is exactly the committed version. Later writes of an object replace
 * earlier ones; an empty value is a deletion. Global system variables travel with the schema.
 */
final class SchemaChanges {
    private final Map<Long, Optional<DatabaseInfo>> databases = new LinkedHashMap<>();
    private final Map<Long, Optional<TableInfo>> tables = new LinkedHashMap<>();
    private final Map<String, Optional<UserInfo>> users = new LinkedHashMap<>();
    private final Map<String, Optional<String>> globalVariables = new LinkedHashMap<>();

    void putDatabase(DatabaseInfo database) {
        databases.put(database.id(), Optional.of(database));
    }

    void deleteDatabase(long databaseId) {
        databases.put(databaseId, Optional.empty());
    }

    void putTable(TableInfo table) {
        tables.put(table.id(), Optional.of(table));
    }

    void deleteTable(long tableId) {
        tables.put(tableId, Optional.empty());
    }

    void putUser(UserInfo user) {
        users.put(userKey(user.user(), user.host()), Optional.of(user));
    }

    void deleteUser(String user, String host) {
        users.put(userKey(user, host), Optional.empty());
    }

    void putGlobalVariable(String name, String value) {
        globalVariables.put(name, Optional.of(value));
    }

    void deleteGlobalVariable(String name) {
        globalVariables.put(name, Optional.empty());
    }

    /** {@code base} with these changes, at {@code version}. */
    InfoSchema applyTo(InfoSchema base, long version) {
        Map<Long, DatabaseInfo> newDatabases = new LinkedHashMap<>();
        for (DatabaseInfo database : base.allDatabases()) {
            newDatabases.put(database.id(), database);
        }
        apply(newDatabases, databases);
        Map<Long, TableInfo> newTables = new LinkedHashMap<>();
        for (DatabaseInfo database : base.allDatabases()) {
            for (TableInfo table : base.tables(database)) {
                newTables.put(table.id(), table);
            }
        }
        apply(newTables, tables);
        Map<String, UserInfo> newUsers = new HashMap<>();
        for (UserInfo user : base.users()) {
            newUsers.put(userKey(user.user(), user.host()), user);
        }
        apply(newUsers, users);
        // In the order a load scans them: by the key of their catalog field.
        List<UserInfo> orderedUsers = newUsers.entrySet().stream()
                .sorted((a, b) -> Arrays.compareUnsigned(a.getKey().getBytes(UTF_8), b.getKey().getBytes(UTF_8)))
                .map(Map.Entry::getValue).toList();
        Map<String, String> newGlobalVariables = new HashMap<>(base.globalVariables());
        apply(newGlobalVariables, globalVariables);
        return new InfoSchema(version, newDatabases.values(), newTables.values(), orderedUsers, newGlobalVariables);
    }

    private static <K, V> void apply(Map<K, V> target, Map<K, Optional<V>> changes) {
        for (Map.Entry<K, Optional<V>> change : changes.entrySet()) {
            if (change.getValue().isPresent()) {
                target.put(change.getKey(), change.getValue().get());
            } else {
                target.remove(change.getKey());
            }
        }
    }

    /** The catalog field of an account (see {@link CatalogStore}). */
    static String userKey(String user, String host) {
        return user + "@" + host.toLowerCase(Locale.ROOT);
    }
}
