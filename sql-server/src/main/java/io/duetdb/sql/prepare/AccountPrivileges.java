package io.duetdb.sql.prepare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.sql.catalog.UserInfo;

/** The rows of information_schema's USER_PRIVILEGES, SCHEMA_PRIVILEGES and TABLE_PRIVILEGES, from the accounts. */
final class AccountPrivileges {
    private AccountPrivileges() {
    }

    /** One row per global privilege of each account; USAGE for an account without any, as MySQL shows it. */
    static List<Object[]> global(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (UserInfo user : schema.users()) {
            String grantable = grantable(user.global());
            if (user.global().stream().allMatch(privilege -> privilege == Privilege.GRANT_OPTION)) {
                rows.add(new Object[] {user.account(), "def", "USAGE", grantable});
            }
            for (Privilege privilege : user.global()) {
                if (privilege != Privilege.GRANT_OPTION) {
                    rows.add(new Object[] {user.account(), "def", name(privilege), grantable});
                }
            }
        }
        return rows;
    }

    static List<Object[]> databases(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (UserInfo user : schema.users()) {
            for (Map.Entry<String, Set<Privilege>> grant : user.databases().entrySet()) {
                String grantable = grantable(grant.getValue());
                for (Privilege privilege : grant.getValue()) {
                    if (privilege != Privilege.GRANT_OPTION) {
                        rows.add(new Object[] {user.account(), "def", grant.getKey(), name(privilege), grantable});
                    }
                }
            }
        }
        return rows;
    }

    /** Table grants are kept under "database.table". */
    static List<Object[]> tables(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (UserInfo user : schema.users()) {
            for (Map.Entry<String, Set<Privilege>> grant : user.tables().entrySet()) {
                int dot = grant.getKey().indexOf('.');
                String database = dot < 0 ? "" : grant.getKey().substring(0, dot);
                String table = grant.getKey().substring(dot + 1);
                String grantable = grantable(grant.getValue());
                for (Privilege privilege : grant.getValue()) {
                    if (privilege != Privilege.GRANT_OPTION) {
                        rows.add(new Object[] {user.account(), "def", database, table, name(privilege), grantable});
                    }
                }
            }
        }
        return rows;
    }

    private static String grantable(Set<Privilege> privileges) {
        return privileges.contains(Privilege.GRANT_OPTION) ? "YES" : "NO";
    }

    private static String name(Privilege privilege) {
        return privilege.name().replace('_', ' ').toUpperCase(Locale.ROOT);
    }
}
