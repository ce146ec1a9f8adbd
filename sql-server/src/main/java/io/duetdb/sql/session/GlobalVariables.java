package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.variables.TidbVariables;
import io.duetdb.sql.variables.TypedVariable;

/**
 * System variables' values beyond a session's own: the cluster's global values (SET GLOBAL writes them in the
 * catalog as a schema change, so every SQL server holds them once the statement returns, and new sessions start
 * from them, as in MySQL), then the server's configuration, then the defaults.
 */
final class GlobalVariables {
    private final Catalog catalog;
    private final ServerSettings settings;

    GlobalVariables(Catalog catalog, ServerSettings settings) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.settings = requireNonNull(settings, "settings is null");
    }

    /** The values set with SET GLOBAL, as the newest schema has them. */
    Map<String, String> current() {
        return catalog.current().globalVariables();
    }

    /**
     * A variable's value: in the global scope (or for a variable that has only one) the cluster's, otherwise the
     * session's own, else the global value the session started with; then the default. {@code scope} is "global",
     * "session", "local" or "" (MySQL's default scope). 1238 when a variable is read in a scope it does not have.
     */
    String value(String scope, String name, Map<String, String> session, Map<String, String> sessionStart) {
        boolean global = scope.equals("global");
        Optional<TypedVariable> typed = TidbVariables.find(name);
        if (typed.isPresent()) {
            if (global && !typed.get().scope().hasGlobal()) {
                throw new DuetException(ErrorCode.READ_ONLY_VARIABLE, "Variable '" + name + "' is a SESSION variable");
            }
            if ((scope.equals("session") || scope.equals("local")) && !typed.get().scope().hasSession()) {
                throw new DuetException(ErrorCode.READ_ONLY_VARIABLE, "Variable '" + name + "' is a GLOBAL variable");
            }
            global |= !typed.get().scope().hasSession();
        }
        String value = global ? current().get(name) : Optional.ofNullable(session.get(name))
                .orElse(sessionStart.get(name));
        if (value != null) {
            return value;
        }
        value = configuredDefault(name).orElse(SystemVariables.defaultValue(name));
        if (value == null) {
            throw new DuetException(ErrorCode.UNKNOWN_SYSTEM_VARIABLE, "Unknown system variable '" + name + "'");
        }
        return value;
    }

    /** Stores a global value for the whole cluster; returns once every SQL server holds it. */
    void set(String name, String value) {
        catalog.runDdl("set global " + name + " = '" + value + "'", (ddl, current) -> {
            ddl.putGlobalVariable(name, value);
            return null;
        });
    }

    /** Drops a global value (SET GLOBAL ... = DEFAULT): the configured or built-in default applies again. */
    void reset(String name) {
        catalog.runDdl("set global " + name + " = default", (ddl, current) -> {
            ddl.deleteGlobalVariable(name);
            return null;
        });
    }

    /** Defaults that the server's configuration decides. */
    private Optional<String> configuredDefault(String name) {
        if (name.equals(TidbVariables.DDL_REORG_BATCH_SIZE)) {
            return Optional.of(Integer.toString(settings.backfillBatchSize()));
        }
        return Optional.empty();
    }
}
