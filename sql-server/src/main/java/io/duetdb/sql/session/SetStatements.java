package io.duetdb.sql.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.sql.variables.Assignment;
import io.duetdb.sql.variables.TidbVariables;
import io.duetdb.sql.variables.TypedVariable;

/** SET statements: NAMES, CHARACTER SET, TRANSACTION ISOLATION LEVEL, and variable assignments. */
final class SetStatements {
    private static final Pattern NAMES = Pattern.compile("(?is)names\\s+.*");
    private static final Pattern CHARSET = Pattern.compile("(?is)(character\\s+set|charset)\\s+.*");
    private static final Pattern TRANSACTION = Pattern.compile(
            "(?is)(?:(global|session|local)\\s+)?transaction\\s+(.*)");
    private static final Pattern ASSIGNMENT = Pattern.compile(
            "(?is)\\s*(?:(global|session|local|persist)\\s+|@@(global|session|local)\\.|@@)?(@?)([A-Za-z_][A-Za-z0-9_.]*)\\s*(?:=|:=)\\s*(.*)");

    private SetStatements() {
    }

    static void execute(Session session, String text) {
        if (NAMES.matcher(text).matches() || CHARSET.matcher(text).matches()) {
            return;
        }
        Matcher transaction = TRANSACTION.matcher(text);
        if (transaction.matches()) {
            String characteristics = transaction.group(2).toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
            if (characteristics.contains("READ COMMITTED")) {
                session.setVariable("transaction_isolation", "READ-COMMITTED");
            } else if (characteristics.contains("REPEATABLE READ")) {
                session.setVariable("transaction_isolation", "REPEATABLE-READ");
            } else if (characteristics.contains("SERIALIZABLE") || characteristics.contains("READ UNCOMMITTED")) {
                session.addWarning("The isolation level " + characteristics + " is not supported; REPEATABLE READ"
                        + " is used");
            }
            return;
        }
        // As MySQL: a GLOBAL or SESSION keyword holds for the assignments after it that name no scope.
        String keywordScope = null;
        for (String assignment : splitTopLevel(text)) {
            Matcher matcher = ASSIGNMENT.matcher(assignment);
            if (!matcher.matches()) {
                throw new DuetException(ErrorCode.PARSE_ERROR, "You have an error in your SQL syntax; check the"
                        + " manual that corresponds to your MySQL server version for the right syntax to use near '"
                        + assignment + "' at line 1");
            }
            boolean userVariable = !matcher.group(3).isEmpty();
            String expression = matcher.group(5).strip();
            if (userVariable) {
                // SET @v = expression: its value, as SELECT answers it (mysqldump saves variables so).
                session.setUserVariable(matcher.group(4), session.evaluate(expression));
                continue;
            }
            String name = matcher.group(4).toLowerCase(Locale.ROOT);
            String value = expression.startsWith("@") ? variableValue(session, name, expression) : unquote(expression);
            if (!SystemVariables.exists(name)) {
                throw new DuetException(ErrorCode.UNKNOWN_SYSTEM_VARIABLE, "Unknown system variable '" + name + "'");
            }
            if (matcher.group(1) != null) {
                keywordScope = matcher.group(1).toLowerCase(Locale.ROOT);
            }
            String scope = matcher.group(2) != null ? matcher.group(2).toLowerCase(Locale.ROOT)
                    : matcher.group(0).strip().startsWith("@@") ? null : keywordScope;
            boolean globalScope = "global".equals(scope) || "persist".equals(scope);
            if (session.manager().configuredVariable(name).isPresent()) {
                // As MySQL: a session cannot change it; globally it comes from the server's configuration here.
                throw globalScope || name.equals("default_authentication_plugin")
                        ? new DuetException(ErrorCode.READ_ONLY_VARIABLE, "Variable '" + name
                                + "' is a read only variable")
                        : new DuetException(ErrorCode.SESSION_VARIABLE_IS_READ_ONLY, "SESSION variable '"
                                + name + "' is read-only. Use SET GLOBAL to assign the value");
            }
            if (name.equals("tx_isolation")) {
                name = "transaction_isolation";
            }
            TypedVariable typed = TidbVariables.find(name).orElse(null);
            if (typed != null) {
                checkScope(typed, globalScope);
            }
            boolean isDefault = value.equalsIgnoreCase("DEFAULT");
            if (globalScope) {
                // As MySQL: the cluster's value, which new sessions start from; this session keeps its own.
                session.requireGlobal(Privilege.SUPER);
                if (isDefault) {
                    session.manager().globalVariables().reset(name);
                } else {
                    session.manager().globalVariables().set(name, checked(session, name, typed, value));
                }
            } else {
                // As MySQL: SET SESSION ... = DEFAULT takes the global value.
                session.setVariable(name, !isDefault ? checked(session, name, typed, value)
                        : typed != null && !typed.scope().hasGlobal() ? typed.defaultValue()
                        : session.manager().globalVariables().value("global", name, Map.of(), Map.of()));
            }
        }
    }

    private static void checkScope(TypedVariable typed, boolean globalScope) {
        if (globalScope && !typed.scope().hasGlobal()) {
            throw new DuetException(ErrorCode.SESSION_SCOPE_VARIABLE, "Variable '" + typed.name()
                    + "' is a SESSION variable and can't be used with SET GLOBAL");
        }
        if (!globalScope && !typed.scope().hasSession()) {
            throw new DuetException(ErrorCode.GLOBAL_SCOPE_VARIABLE, "Variable '" + typed.name()
                    + "' is a GLOBAL variable and should be set with SET GLOBAL");
        }
    }

    /** The value SET stores: typed variables checked by type (clamped values add MySQL's warning), others as before. */
    private static String checked(Session session, String name, TypedVariable typed, String value) {
        if (typed == null) {
            return SystemVariables.normalise(name, value);
        }
        Assignment assignment = typed.assign(value);
        assignment.warning().ifPresent(warning -> session.addWarning(ErrorCode.TRUNCATED_WRONG_VALUE, warning));
        return assignment.value();
    }

    /** A system variable set from a variable ({@code SET time_zone = @saved}): its value, never NULL. */
    private static String variableValue(Session session, String name, String expression) {
        Object value = session.evaluate(expression);
        if (value == null) {
            throw new DuetException(ErrorCode.WRONG_VALUE_FOR_VARIABLE, "Variable '" + name
                    + "' can't be set to the value of 'NULL'");
        }
        return String.valueOf(value);
    }

    private static String unquote(String value) {
        if (value.length() >= 2 && (value.startsWith("'") && value.endsWith("'")
                || value.startsWith("\"") && value.endsWith("\""))) {
            return value.substring(1, value.length() - 1);
        }
        return value;
    }

    private static List<String> splitTopLevel(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        char quote = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts;
    }
}
