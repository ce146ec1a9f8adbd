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
    private final Map<String, DatabaseInfo> databases;
    private final Map<Long, Map<String, TableInfo>> tablesByDatabase;
    private final Map<Long, TableInfo> tablesById;
    private final List<UserInfo> users;
    /** System variables set with SET GLOBAL: name (lower case) to value. */
    private final Map<String, String> globalVariables;
    /** The foreign keys that reference each table, by the referenced table's id. */
    private final Map<Long, List<ForeignKeyReference>> referencing;
    private boolean hasForeignKeys;
    /** One session's temporary tables, by lower-case database name, then lower-case name as the session names them. */
    private final Map<String, Map<String, TableInfo>> temporaryTables;

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
        this.databases = new HashMap<>();
        this.tablesByDatabase = new HashMap<>();
        this.tablesById = new HashMap<>();
        this.referencing = new HashMap<>();
        this.temporaryTables = Map.of();
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

    private InfoSchema(InfoSchema base, Map<String, Map<String, TableInfo>> temporaryTables) {
        this.version = base.version;
        this.databases = base.databases;
        this.tablesByDatabase = base.tablesByDatabase;
        this.tablesById = base.tablesById;
        this.users = base.users;
        this.globalVariables = base.globalVariables;
        this.referencing = base.referencing;
        this.hasForeignKeys = base.hasForeignKeys;
        this.temporaryTables = temporaryTables;
    }

    /**
     * This schema as one session sees it: its temporary tables (by lower-case database name, then lower-case name)
     * found by name before the tables they hide.
     */
    public InfoSchema withTemporaryTables(Map<String, Map<String, TableInfo>> temporaryTables) {
        return temporaryTables.isEmpty() ? this : new InfoSchema(this, Map.copyOf(temporaryTables));
    }

    /** The session's temporary tables in the database {@code databaseName}, by lower-case name. */
    public Map<String, TableInfo> temporaryTables(String databaseName) {
        return temporaryTables.getOrDefault(databaseName.toLowerCase(Locale.ROOT), Map.of());
    }

    /**
     * The name of the database that holds one session's temporary tables of one database, under their own names: the
     * server's id, the session's connection id and the database's id.
     */
    public static String temporaryTablesDatabase(String serverId, long connectionId, long databaseId) {
        return DatabaseInfo.TEMPORARY_TABLES_PREFIX + serverId.replace("-", "") + "_" + connectionId + "_" + databaseId;
    }

    /** Whether {@code databaseName} holds a session's temporary tables. */
    public static boolean holdsTemporaryTables(String databaseName) {
        return databaseName.toLowerCase(Locale.ROOT).startsWith(DatabaseInfo.TEMPORARY_TABLES_PREFIX);
    }

    /** The server whose session's temporary tables {@code databaseName} holds (see {@link #holdsTemporaryTables}). */
    public static String temporaryTablesServer(String databaseName) {
        String rest = databaseName.substring(DatabaseInfo.TEMPORARY_TABLES_PREFIX.length());
        int end = rest.indexOf('_');
        return end < 0 ? rest : rest.substring(0, end);
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

    /** The databases, sorted by name; not those that hold sessions' temporary tables. */
    public List<DatabaseInfo> databases() {
        List<DatabaseInfo> list = new ArrayList<>(databases.values());
        list.removeIf(DatabaseInfo::holdsTemporaryTables);
        list.sort((a, b) -> a.name().compareToIgnoreCase(b.name()));
        return list;
    }

    /** Every database, those that hold sessions' temporary tables included. */
    public List<DatabaseInfo> allDatabases() {
        List<DatabaseInfo> list = new ArrayList<>(databases.values());
        list.sort((a, b) -> a.name().compareToIgnoreCase(b.name()));
        return list;
    }

    /** The table so named: this session's temporary table first, as MySQL finds it. */
    public Optional<TableInfo> table(String databaseName, String tableName) {
        TableInfo temporary = temporaryTables(databaseName).get(tableName.toLowerCase(Locale.ROOT));
        if (temporary != null) {
            return Optional.of(temporary);
        }
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
