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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.catalog.AuthenticationPlugin;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.sql.catalog.UserInfo;
import io.duetdb.sql.protocol.CachingSha2Password;
import io.duetdb.sql.protocol.NativePassword;

/** CREATE / DROP / ALTER USER, SET PASSWORD, GRANT, REVOKE and SHOW GRANTS. */
final class AccountStatements {
    private static final String NAME = "(?:'([^']*)'|\"([^\"]*)\"|`([^`]*)`|([\\w.$-]+))";
    private static final String ACCOUNT = NAME + "(?:\\s*@\\s*" + NAME + ")?";
    /** IDENTIFIED [WITH plugin] [BY 'password']: groups plugin, password after a plugin, password without. */
    private static final String IDENTIFIED = "\\s+identified\\s+(?:with\\s+['\"`]?(\\w+)['\"`]?(?:\\s+by\\s+'([^']*)')?"
            + "|by\\s+'([^']*)')";
    private static final Pattern CREATE = Pattern.compile("(?is)create\\s+user\\s+(if\\s+not\\s+exists\\s+)?"
            + ACCOUNT + "(?:" + IDENTIFIED + ")?");
    private static final Pattern DROP = Pattern.compile("(?is)drop\\s+user\\s+(if\\s+exists\\s+)?" + ACCOUNT);
    private static final Pattern ALTER = Pattern.compile("(?is)alter\\s+user\\s+(?:if\\s+exists\\s+)?" + ACCOUNT
            + IDENTIFIED);
    private static final Pattern SET_PASSWORD = Pattern.compile("(?is)set\\s+password(?:\\s+for\\s+" + ACCOUNT
            + ")?\\s*=\\s*(?:password\\s*\\(\\s*)?'([^']*)'\\s*\\)?");
    private static final Pattern GRANT = Pattern.compile("(?is)grant\\s+(.+?)\\s+on\\s+(?:table\\s+)?(\\S+)\\s+to\\s+"
            + ACCOUNT + "(\\s+with\\s+grant\\s+option)?");
    private static final Pattern REVOKE = Pattern.compile("(?is)revoke\\s+(.+?)\\s+on\\s+(?:table\\s+)?(\\S+)\\s+from\\s+"
            + ACCOUNT);
    private static final Pattern SHOW_GRANTS = Pattern.compile("(?is)show\\s+grants(?:\\s+for\\s+(?:current_user(?:\\(\\))?|"
            + ACCOUNT + "))?");

    private AccountStatements() {
    }

    /** Runs the statement if it is one of these; null otherwise. */
    static StatementResult tryExecute(Session session, String sql) {
        Matcher matcher;
        if ((matcher = CREATE.matcher(sql)).matches()) {
            session.requireGlobal(Privilege.CREATE_USER);
            String user = name(matcher, 2);
            String host = host(matcher, 6);
            AuthenticationPlugin plugin = matcher.group(10) == null
                    ? session.manager().settings().defaultAuthenticationPlugin() : plugin(matcher.group(10));
            String password = password(matcher, 11);
            String hash = hash(plugin, password);
            boolean ifNotExists = matcher.group(1) != null;
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
            return UpdateResult.NONE;
        }
        if ((matcher = DROP.matcher(sql)).matches()) {
            session.requireGlobal(Privilege.CREATE_USER);
            String user = name(matcher, 2);
            String host = host(matcher, 6);
            boolean ifExists = matcher.group(1) != null;
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
            return UpdateResult.NONE;
        }
        if ((matcher = ALTER.matcher(sql)).matches()) {
            session.requireGlobal(Privilege.CREATE_USER);
            AuthenticationPlugin plugin = matcher.group(9) == null ? null : plugin(matcher.group(9));
            changePassword(session, name(matcher, 1), host(matcher, 5), plugin, password(matcher, 10));
            return UpdateResult.NONE;
        }
        if ((matcher = SET_PASSWORD.matcher(sql)).matches()) {
            String user = name(matcher, 1);
            String host = user == null ? null : host(matcher, 5);
            if (user == null) {
                UserInfo self = session.account();
                user = self.user();
                host = self.host();
            } else {
                session.requireGlobal(Privilege.CREATE_USER);
            }
            changePassword(session, user, host, null, matcher.group(9));
            return UpdateResult.NONE;
        }
        if ((matcher = GRANT.matcher(sql)).matches()) {
            session.requireGlobal(Privilege.GRANT_OPTION);
            Set<Privilege> privileges = privileges(matcher.group(1), matcher.group(2));
            if (matcher.group(11) != null) {
                privileges.add(Privilege.GRANT_OPTION);
            }
            changeGrants(session, name(matcher, 3), host(matcher, 7), matcher.group(2), privileges, true);
            return UpdateResult.NONE;
        }
        if ((matcher = REVOKE.matcher(sql)).matches()) {
            session.requireGlobal(Privilege.GRANT_OPTION);
            Set<Privilege> privileges = privileges(matcher.group(1), matcher.group(2));
            if (matcher.group(1).toUpperCase(Locale.ROOT).contains("GRANT OPTION")) {
                privileges.add(Privilege.GRANT_OPTION);
            }
            changeGrants(session, name(matcher, 3), host(matcher, 7), matcher.group(2), privileges, false);
            return UpdateResult.NONE;
        }
        if ((matcher = SHOW_GRANTS.matcher(sql)).matches()) {
            String user = name(matcher, 1);
            UserInfo account;
            if (user == null) {
                account = session.account();
            } else {
                String host = host(matcher, 5);
                account = session.manager().catalog().current().user(user, host).orElseThrow(() ->
                        new DuetException(ErrorCode.NONEXISTING_GRANT, "There is no such grant defined for user '"
                                + user + "' on host '" + host + "'"));
            }
            return showGrants(account);
        }
        if (sql.strip().toUpperCase(Locale.ROOT).matches("FLUSH\\s+PRIVILEGES")) {
            return UpdateResult.NONE;
        }
        return null;
    }

    private static String name(Matcher matcher, int first) {
        for (int i = first; i < first + 4; i++) {
            if (matcher.group(i) != null) {
                return matcher.group(i);
            }
        }
        return null;
    }

    private static String host(Matcher matcher, int first) {
        String host = name(matcher, first);
        return host == null ? "%" : host;
    }

    /** The password of IDENTIFIED's two forms (with and without a plugin); empty when there is none. */
    private static String password(Matcher matcher, int afterPlugin) {
        String password = matcher.group(afterPlugin) != null ? matcher.group(afterPlugin) : matcher.group(afterPlugin + 1);
        return password == null ? "" : password;
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
    private static Set<Privilege> privileges(String list, String target) {
        Set<Privilege> privileges = EnumSet.noneOf(Privilege.class);
        for (String written : list.split(",")) {
            String name = written.strip().toUpperCase(Locale.ROOT);
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
        String level = target.replace("`", "").toLowerCase(Locale.ROOT);
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
