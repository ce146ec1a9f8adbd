package io.duetdb.sql.session;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.calcite.sql.SqlNode;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.catalog.AuthenticationPlugin;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.sql.catalog.UserInfo;
import io.duetdb.sql.parser.account.AccountName;
import io.duetdb.sql.parser.account.SqlAlterUser;
import io.duetdb.sql.parser.account.SqlCreateUser;
import io.duetdb.sql.parser.account.SqlDropUser;
import io.duetdb.sql.parser.account.SqlFlushPrivileges;
import io.duetdb.sql.parser.account.SqlGrant;
import io.duetdb.sql.parser.account.SqlSetPassword;
import io.duetdb.sql.parser.account.SqlShowGrants;
import io.duetdb.sql.parser.account.UserSpecification;
import io.duetdb.sql.protocol.CachingSha2Password;
import io.duetdb.sql.protocol.NativePassword;

/** CREATE / DROP / ALTER USER, SET PASSWORD, GRANT, REVOKE, SHOW GRANTS and FLUSH PRIVILEGES. */
final class AccountStatements {
    private AccountStatements() {
    }

    /** Runs the statement if it is one of these; null otherwise. */
    static StatementResult tryExecute(Session session, SqlNode statement) {
        if (statement instanceof SqlCreateUser create) {
            session.requireGlobal(Privilege.CREATE_USER);
            for (UserSpecification user : create.users()) {
                createUser(session, user, create.ifNotExists());
            }
            return UpdateResult.NONE;
        }
        if (statement instanceof SqlDropUser drop) {
            session.requireGlobal(Privilege.CREATE_USER);
            for (AccountName account : drop.accounts()) {
                dropUser(session, account, drop.ifExists());
            }
            return UpdateResult.NONE;
        }
        if (statement instanceof SqlAlterUser alter) {
            session.requireGlobal(Privilege.CREATE_USER);
            UserSpecification user = alter.user();
            changePassword(session, user.account().user(), user.account().host(),
                    user.plugin() == null ? null : plugin(user.plugin()), user.password());
            return UpdateResult.NONE;
        }
        if (statement instanceof SqlSetPassword set) {
            String user;
            String host;
            if (set.account() == null) {
                UserInfo self = session.account();
                user = self.user();
                host = self.host();
            } else {
                session.requireGlobal(Privilege.CREATE_USER);
                user = set.account().user();
                host = set.account().host();
            }
            changePassword(session, user, host, null, set.password());
            return UpdateResult.NONE;
        }
        if (statement instanceof SqlGrant grant) {
            session.requireGlobal(Privilege.GRANT_OPTION);
            Set<Privilege> privileges = privileges(grant.privileges(), grant.level());
            if (grant.withGrantOption()) {
                privileges.add(Privilege.GRANT_OPTION);
            }
            changeGrants(session, grant.account().user(), grant.account().host(), grant.level(), privileges,
                    grant.grant());
            return UpdateResult.NONE;
        }
        if (statement instanceof SqlShowGrants show) {
            UserInfo account;
            if (show.account() == null) {
                account = session.account();
            } else {
                String user = show.account().user();
                String host = show.account().host();
                account = session.manager().catalog().current().user(user, host).orElseThrow(() ->
                        new DuetException(ErrorCode.NONEXISTING_GRANT, "There is no such grant defined for user '"
                                + user + "' on host '" + host + "'"));
            }
            return showGrants(account);
        }
        if (statement instanceof SqlFlushPrivileges) {
            return UpdateResult.NONE;
        }
        return null;
    }

    private static void createUser(Session session, UserSpecification specification, boolean ifNotExists) {
        String user = specification.account().user();
        String host = specification.account().host();
        AuthenticationPlugin plugin = specification.plugin() == null
                ? session.manager().settings().defaultAuthenticationPlugin() : plugin(specification.plugin());
        String hash = hash(plugin, specification.password());
        session.manager().catalog().runDdl("create user " + user + "@" + host, (ddl, current) -> {
            if (current.user(user, host).isPresent()) {
                if (ifNotExists) {
                    return null;
                }
                throw new DuetException(ErrorCode.CANNOT_USER, "Operation CREATE USER failed for '" + user + "'@'"
                        + host + "'");
            }
            ddl.putUser(new UserInfo(user, host, plugin, hash, Set.of(), Map.of(), Map.of()));
            return null;
        });
    }

    private static void dropUser(Session session, AccountName account, boolean ifExists) {
        String user = account.user();
        String host = account.host();
        session.manager().catalog().runDdl("drop user " + user + "@" + host, (ddl, current) -> {
            if (current.user(user, host).isEmpty()) {
                if (ifExists) {
                    return null;
                }
                throw new DuetException(ErrorCode.CANNOT_USER, "Operation DROP USER failed for '" + user + "'@'"
                        + host + "'");
            }
            ddl.deleteUser(user, host);
            return null;
        });
    }

    private static AuthenticationPlugin plugin(String name) {
        return AuthenticationPlugin.fromName(name).orElseThrow(() -> new DuetException(
                ErrorCode.PLUGIN_IS_NOT_LOADED, "Plugin '" + name + "' is not loaded"));
    }

    private static String hash(AuthenticationPlugin plugin, String password) {
        return switch (plugin) {
            case MYSQL_NATIVE_PASSWORD -> HexFormat.of().formatHex(NativePassword.storedHash(password));
            case CACHING_SHA2_PASSWORD -> CachingSha2Password.storedHash(password, new SecureRandom());
        };
    }

    /** ALTER USER and SET PASSWORD: a new password, with a new plugin or (null) the account's own. */
    private static void changePassword(Session session, String user, String host, AuthenticationPlugin newPlugin,
            String password) {
        UserInfo existing = session.manager().catalog().current().user(user, host).orElse(null);
        AuthenticationPlugin expected = newPlugin != null ? newPlugin
                : existing != null ? existing.plugin() : AuthenticationPlugin.MYSQL_NATIVE_PASSWORD;
        // Hashing is slow on purpose: done before the DDL transaction, again inside only if the plugin changed.
        String hash = hash(expected, password);
        session.manager().catalog().runDdl("set password of " + user + "@" + host, (ddl, current) -> {
            UserInfo account = current.user(user, host).orElseThrow(() -> new DuetException(ErrorCode.CANNOT_USER,
                    "Operation ALTER USER failed for '" + user + "'@'" + host + "'"));
            AuthenticationPlugin plugin = newPlugin != null ? newPlugin : account.plugin();
            ddl.putUser(account.withPassword(plugin, plugin == expected ? hash : hash(plugin, password)));
            return null;
        });
    }

    /** The privileges a GRANT or REVOKE lists; ALL [PRIVILEGES] expands to what the level allows. */
    private static Set<Privilege> privileges(List<String> names, String target) {
        Set<Privilege> privileges = EnumSet.noneOf(Privilege.class);
        for (String name : names) {
            if (name.equals("ALL") || name.equals("ALL PRIVILEGES")) {
                privileges.addAll(Privilege.all(target.equals("*.*") || target.equals("*")));
            } else if (name.equals("GRANT OPTION")) {
                privileges.add(Privilege.GRANT_OPTION);
            } else if (name.equals("USAGE")) {
                continue;
            } else {
                privileges.add(Privilege.parse(name));
            }
        }
        return privileges;
    }

    private static void changeGrants(Session session, String user, String host, String target,
            Set<Privilege> privileges, boolean grant) {
        String level = target.toLowerCase(Locale.ROOT);
        if (!level.equals("*.*") && !level.equals("*") && !level.contains(".")) {
            level = session.currentDatabase() == null ? level : session.currentDatabase().toLowerCase(Locale.ROOT)
                    + "." + level;
        }
        String finalLevel = level;
        session.manager().catalog().runDdl((grant ? "grant on " : "revoke on ") + level + " for " + user + "@" + host,
                (ddl, current) -> {
                    UserInfo account = current.user(user, host).orElseThrow(() -> new DuetException(
                            ErrorCode.NONEXISTING_GRANT, "There is no such grant defined for user '" + user
                                    + "' on host '" + host + "'"));
                    Set<Privilege> global = EnumSet.noneOf(Privilege.class);
                    global.addAll(account.global());
                    Map<String, Set<Privilege>> databases = deepCopy(account.databases());
                    Map<String, Set<Privilege>> tables = deepCopy(account.tables());
                    Set<Privilege> changed;
                    if (finalLevel.equals("*.*") || finalLevel.equals("*")) {
                        changed = global;
                    } else if (finalLevel.endsWith(".*")) {
                        changed = databases.computeIfAbsent(finalLevel.substring(0, finalLevel.length() - 2),
                                key -> EnumSet.noneOf(Privilege.class));
                    } else {
                        changed = tables.computeIfAbsent(finalLevel, key -> EnumSet.noneOf(Privilege.class));
                    }
                    if (grant) {
                        changed.addAll(privileges);
                    } else {
                        changed.removeAll(privileges);
                    }
                    ddl.putUser(account.withGrants(global, databases, tables));
                    return null;
                });
    }

    private static Map<String, Set<Privilege>> deepCopy(Map<String, Set<Privilege>> grants) {
        Map<String, Set<Privilege>> copy = new HashMap<>();
        grants.forEach((name, privileges) -> copy.put(name, EnumSet.copyOf(privileges)));
        return copy;
    }

    private static QueryResult showGrants(UserInfo account) {
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {"GRANT " + list(account.global(), true) + " ON *.* TO " + account.account()
                + (account.global().contains(Privilege.GRANT_OPTION) ? " WITH GRANT OPTION" : "")});
        account.databases().forEach((database, privileges) -> rows.add(new Object[] {"GRANT "
                + list(privileges, false) + " ON `" + database + "`.* TO " + account.account()}));
        account.tables().forEach((table, privileges) -> {
            int dot = table.indexOf('.');
            rows.add(new Object[] {"GRANT " + list(privileges, false) + " ON `" + table.substring(0, dot) + "`.`"
                    + table.substring(dot + 1) + "` TO " + account.account()});
        });
        return new QueryResult(List.of(ResultColumn.computed("Grants for " + account.user() + "@" + account.host(),
                SqlType.varchar(1024))), rows);
    }

    private static String list(Set<Privilege> privileges, boolean global) {
        EnumSet<Privilege> shown = privileges.isEmpty() ? EnumSet.noneOf(Privilege.class) : EnumSet.copyOf(privileges);
        shown.remove(Privilege.GRANT_OPTION);
        if (shown.isEmpty()) {
            return "USAGE";
        }
        if (shown.containsAll(Privilege.all(global))) {
            return "ALL PRIVILEGES";
        }
        List<String> names = new ArrayList<>();
        for (Privilege privilege : shown) {
            names.add(privilege.sql());
        }
        return String.join(", ", names);
    }

}
