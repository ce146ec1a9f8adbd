package io.duetdb.sql.prepare;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.calcite.schema.Table;

import io.duetdb.sql.catalog.AuthenticationPlugin;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.sql.catalog.UserInfo;

/**
 * The {@code mysql} system schema's grant tables as administration tools read them: {@code user}, {@code db} and
 * {@code tables_priv}, read-only views of the accounts (changed with CREATE USER, GRANT and REVOKE, as in MySQL).
 * The privilege columns DuetDB has no privilege for read 'N'.
 */
public final class MySqlSystemSchema {
    public static final String NAME = "mysql";
    /** The grant tables it holds. */
    public static final List<String> TABLES = List.of("db", "tables_priv", "user");
    /** The privilege columns of user and db, in MySQL's order, and the privilege each stands for (null: none). */
    private static final List<Map.Entry<String, Privilege>> PRIVILEGE_COLUMNS = List.of(
            Map.entry("Select_priv", Privilege.SELECT), Map.entry("Insert_priv", Privilege.INSERT),
            Map.entry("Update_priv", Privilege.UPDATE), Map.entry("Delete_priv", Privilege.DELETE),
            Map.entry("Create_priv", Privilege.CREATE), Map.entry("Drop_priv", Privilege.DROP),
            Map.entry("Grant_priv", Privilege.GRANT_OPTION), Map.entry("Index_priv", Privilege.INDEX),
            Map.entry("Alter_priv", Privilege.ALTER));
    private static final List<Map.Entry<String, Privilege>> GLOBAL_COLUMNS = List.of(
            Map.entry("Process_priv", Privilege.PROCESS), Map.entry("Super_priv", Privilege.SUPER),
            Map.entry("Create_user_priv", Privilege.CREATE_USER));

    private MySqlSystemSchema() {
    }

    static Map<String, Table> tables(InfoSchema schema) {
        Map<String, Table> tables = new HashMap<>();
        List<String> userColumns = new ArrayList<>(List.of("Host", "User"));
        PRIVILEGE_COLUMNS.forEach(column -> userColumns.add(column.getKey()));
        GLOBAL_COLUMNS.forEach(column -> userColumns.add(column.getKey()));
        userColumns.addAll(List.of("plugin", "authentication_string", "account_locked"));
        add(tables, schema, "user", userColumns, MySqlSystemSchema::users);
        List<String> dbColumns = new ArrayList<>(List.of("Host", "Db", "User"));
        PRIVILEGE_COLUMNS.forEach(column -> dbColumns.add(column.getKey()));
        add(tables, schema, "db", dbColumns, MySqlSystemSchema::databases);
        add(tables, schema, "tables_priv", List.of("Host", "Db", "User", "Table_name", "Grantor", "Table_priv",
                "Column_priv"), MySqlSystemSchema::tablePrivileges);
        return tables;
    }

    private static void add(Map<String, Table> tables, InfoSchema schema, String name, List<String> columns,
            java.util.function.Function<InfoSchema, List<Object[]>> rows) {
        List<InformationSchemaTable.Column> typed = new ArrayList<>();
        for (String column : columns) {
            typed.add(new InformationSchemaTable.Column(column, InformationSchemaTable.Column.Kind.TEXT));
        }
        tables.put(name, new InformationSchemaTable(name, typed, rows, schema));
    }

    private static List<Object[]> users(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (UserInfo user : schema.users()) {
            List<Object> row = new ArrayList<>(List.of(user.host(), user.user()));
            PRIVILEGE_COLUMNS.forEach(column -> row.add(flag(user.global(), column.getValue())));
            GLOBAL_COLUMNS.forEach(column -> row.add(flag(user.global(), column.getValue())));
            row.add(user.plugin().pluginName());
            row.add(authenticationString(user));
            row.add("N");
            rows.add(row.toArray());
        }
        return rows;
    }

    private static List<Object[]> databases(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (UserInfo user : schema.users()) {
            for (Map.Entry<String, Set<Privilege>> grant : user.databases().entrySet()) {
                List<Object> row = new ArrayList<>(List.of(user.host(), grant.getKey(), user.user()));
                PRIVILEGE_COLUMNS.forEach(column -> row.add(flag(grant.getValue(), column.getValue())));
                rows.add(row.toArray());
            }
        }
        return rows;
    }

    /** Table grants ("database.table"), their privileges as MySQL's SET column writes them. */
    private static List<Object[]> tablePrivileges(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (UserInfo user : schema.users()) {
            for (Map.Entry<String, Set<Privilege>> grant : user.tables().entrySet()) {
                int dot = grant.getKey().indexOf('.');
                List<String> names = new ArrayList<>();
                for (Privilege privilege : grant.getValue()) {
                    names.add(privilege == Privilege.GRANT_OPTION ? "Grant"
                            : capitalized(privilege.name().replace('_', ' ')));
                }
                rows.add(new Object[] {user.host(), grant.getKey().substring(0, Math.max(0, dot)), user.user(),
                        grant.getKey().substring(dot + 1), "", String.join(",", names), ""});
            }
        }
        return rows;
    }

    private static String flag(Set<Privilege> privileges, Privilege privilege) {
        return privileges.contains(privilege) ? "Y" : "N";
    }

    /** As MySQL shows it: mysql_native_password's hash as '*' and upper-case hex, other plugins' as kept. */
    private static String authenticationString(UserInfo user) {
        if (user.passwordHash().isEmpty()) {
            return "";
        }
        return user.plugin() == AuthenticationPlugin.MYSQL_NATIVE_PASSWORD
                ? "*" + user.passwordHash().toUpperCase(Locale.ROOT) : user.passwordHash();
    }

    private static String capitalized(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        return Character.toUpperCase(lower.charAt(0)) + lower.substring(1);
    }
}
