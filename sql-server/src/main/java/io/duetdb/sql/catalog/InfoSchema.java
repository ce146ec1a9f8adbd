package io.duetdb.sql.catalog;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.ForeignKey;
import io.duetdb.common.catalog.TableInfo;

/** An immutable view of the whole catalog at one schema version. Names are looked up case-insensitively. */
public final class InfoSchema {
    private final long version;
    private final Map<String, DatabaseInfo> databases = new HashMap<>();
    private final Map<Long, Map<String, TableInfo>> tablesByDatabase = new HashMap<>();
    private final Map<Long, TableInfo> tablesById = new HashMap<>();
    private final List<UserInfo> users;
    /** System variables set with SET GLOBAL: name (lower case) to value. */
    private final Map<String, String> globalVariables;
    /** The foreign keys that reference each table, by the referenced table's id. */
    private final Map<Long, List<ForeignKeyReference>> referencing = new HashMap<>();
    private boolean hasForeignKeys;

    public InfoSchema(long version, Collection<DatabaseInfo> databases, Collection<TableInfo> tables) {
        this(version, databases, tables, List.of());
    }

    public InfoSchema(long version, Collection<DatabaseInfo> databases, Collection<TableInfo> tables,
            Collection<UserInfo> users) {
        this(version, databases, tables, users, Map.of());
    }

    public InfoSchema(long version, Collection<DatabaseInfo> databases, Collection<TableInfo> tables,
            Collection<UserInfo> users, Map<String, String> globalVariables) {
        this.version = version;
        this.users = List.copyOf(users);
        this.globalVariables = Map.copyOf(requireNonNull(globalVariables, "globalVariables is null"));
        for (DatabaseInfo database : databases) {
            this.databases.put(database.name().toLowerCase(Locale.ROOT), database);
            tablesByDatabase.put(database.id(), new HashMap<>());
        }
        for (TableInfo table : tables) {
            Map<String, TableInfo> tablesOfDatabase = tablesByDatabase.get(table.databaseId());
            if (tablesOfDatabase != null) {
                tablesOfDatabase.put(table.lowerCaseName(), table);
                tablesById.put(table.id(), table);
            }
        }
        for (TableInfo table : tablesById.values()) {
            for (ForeignKey foreignKey : table.foreignKeys()) {
                hasForeignKeys = true;
                table(foreignKey.referencedDatabase(), foreignKey.referencedTable()).ifPresent(parent -> referencing
                        .computeIfAbsent(parent.id(), id -> new ArrayList<>())
                        .add(new ForeignKeyReference(table, foreignKey)));
            }
        }
    }

    /** Whether any table declares a foreign key. */
    public boolean hasForeignKeys() {
        return hasForeignKeys;
    }

    /** The foreign keys of other tables (or of the table itself) that reference the table {@code tableId}. */
    public List<ForeignKeyReference> referencing(long tableId) {
        return referencing.getOrDefault(tableId, List.of());
    }

    public List<UserInfo> users() {
        return users;
    }

    /** The system variables set with SET GLOBAL, by lower-case name. */
    public Map<String, String> globalVariables() {
        return globalVariables;
    }

    /** The account a client logs in as: an exact host match first, then the '%' account. */
    public Optional<UserInfo> account(String user, String clientHost) {
        Optional<UserInfo> exact = users.stream().filter(u -> u.user().equals(user) && !u.host().equals("%")
                && u.matchesHost(clientHost)).findFirst();
        if (exact.isPresent()) {
            return exact;
        }
        return users.stream().filter(u -> u.user().equals(user) && u.host().equals("%")).findFirst();
    }

    public Optional<UserInfo> user(String user, String host) {
        return users.stream().filter(u -> u.user().equals(user) && u.host().equalsIgnoreCase(host)).findFirst();
    }

    public long version() {
        return version;
    }

    public Optional<DatabaseInfo> database(String name) {
        requireNonNull(name, "name is null");
        return Optional.ofNullable(databases.get(name.toLowerCase(Locale.ROOT)));
    }

    public Optional<DatabaseInfo> database(long databaseId) {
        return databases.values().stream().filter(database -> database.id() == databaseId).findFirst();
    }

    public List<DatabaseInfo> databases() {
        List<DatabaseInfo> list = new ArrayList<>(databases.values());
        list.sort((a, b) -> a.name().compareToIgnoreCase(b.name()));
        return list;
    }

    public Optional<TableInfo> table(String databaseName, String tableName) {
        return database(databaseName).map(database -> tablesByDatabase.get(database.id())
                .get(tableName.toLowerCase(Locale.ROOT)));
    }

    public Optional<TableInfo> table(long tableId) {
        return Optional.ofNullable(tablesById.get(tableId));
    }

    public List<TableInfo> tables(DatabaseInfo database) {
        List<TableInfo> list = new ArrayList<>(tablesByDatabase.getOrDefault(database.id(), Map.of()).values());
        list.sort((a, b) -> a.name().compareToIgnoreCase(b.name()));
        return list;
    }
}
