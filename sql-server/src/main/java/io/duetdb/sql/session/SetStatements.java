package io.duetdb.sql.session;

import java.util.Map;

import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.sql.parser.VariableReferences;
import io.duetdb.sql.parser.session.SqlSetTransaction;
import io.duetdb.sql.parser.session.SqlSetVariables;
import io.duetdb.sql.parser.session.SqlSetVariables.Scope;
import io.duetdb.sql.variables.Assignment;
import io.duetdb.sql.variables.TidbVariables;
import io.duetdb.sql.variables.TypedVariable;

/** SET statements: variable assignments, NAMES, CHARACTER SET, and TRANSACTION characteristics. */
final class SetStatements {
    static final String TRANSACTION_ISOLATION = "transaction_isolation";
    static final String TRANSACTION_READ_ONLY = "transaction_read_only";

    private SetStatements() {
    }

    static void execute(Session session, SqlSetVariables set) {
        for (SqlSetVariables.Assignment assignment : set.assignments()) {
            if (assignment instanceof SqlSetVariables.UserVariable user) {
                // SET @v = expression: its value, as SELECT answers it (mysqldump saves variables so).
                session.setUserVariable(user.name(),
                        session.evaluate(VariableReferences.retyped(user.value(), session.variableTypes())));
            } else if (assignment instanceof SqlSetVariables.SystemVariable system) {
                setSystemVariable(session, system);
            }
            // NAMES and CHARACTER SET: every connection speaks utf8mb4 here.
        }
    }

    /**
     * SET TRANSACTION: GLOBAL sets the cluster's values new sessions start from, SESSION this session's, and neither
     * the next transaction's only (MySQL's rule), which cannot change while a transaction is open.
     */
    static void execute(Session session, SqlSetTransaction set) {
        String isolation = null;
        if (set.isolation() != null) {
            switch (set.isolation()) {
                case READ_COMMITTED, REPEATABLE_READ -> isolation = set.isolation().variableValue();
                case READ_UNCOMMITTED, SERIALIZABLE -> session.addWarning("The isolation level "
                        + set.isolation().variableValue() + " is not supported; REPEATABLE READ is used");
            }
        }
        String readOnly = set.readOnly() == null ? null : set.readOnly() ? "1" : "0";
        switch (set.scope()) {
            case GLOBAL -> {
                session.requireGlobal(Privilege.SUPER);
                if (isolation != null) {
                    session.manager().globalVariables().set(TRANSACTION_ISOLATION, isolation);
                }
                if (readOnly != null) {
                    session.manager().globalVariables().set(TRANSACTION_READ_ONLY, readOnly);
                }
            }
            case SESSION -> {
                if (isolation != null) {
                    session.setVariable(TRANSACTION_ISOLATION, isolation);
                }
                if (readOnly != null) {
                    session.setVariable(TRANSACTION_READ_ONLY, readOnly);
                }
            }
            case NEXT_TRANSACTION -> session.characterizeNextTransaction(isolation, set.readOnly());
        }
    }

    private static void setSystemVariable(Session session, SqlSetVariables.SystemVariable system) {
        String name = system.name();
        if (!SystemVariables.exists(name)) {
            throw new DuetException(ErrorCode.UNKNOWN_SYSTEM_VARIABLE, "Unknown system variable '" + name + "'");
        }
        String value = system.isDefault() ? null : value(session, name, system.value());
        boolean globalScope = system.scope() == Scope.GLOBAL || system.scope() == Scope.PERSIST
                || system.scope() == Scope.PERSIST_ONLY;
        if (session.manager().configuredVariable(name).isPresent()) {
            // As MySQL: a session cannot change it; globally it comes from the server's configuration here.
            throw globalScope || name.equals("default_authentication_plugin")
                    ? new DuetException(ErrorCode.READ_ONLY_VARIABLE, "Variable '" + name + "' is a read only variable")
                    : new DuetException(ErrorCode.SESSION_VARIABLE_IS_READ_ONLY, "SESSION variable '" + name
                            + "' is read-only. Use SET GLOBAL to assign the value");
        }
        if (name.equals("tx_isolation")) {
            name = TRANSACTION_ISOLATION;
        } else if (name.equals("tx_read_only")) {
            name = TRANSACTION_READ_ONLY;
        }
        TypedVariable typed = TidbVariables.find(name).orElse(null);
        if (typed != null) {
            checkScope(typed, globalScope);
        }
        if (globalScope) {
            // As MySQL: the cluster's value, which new sessions start from; this session keeps its own.
            session.requireGlobal(Privilege.SUPER);
            if (value == null) {
                session.manager().globalVariables().reset(name);
            } else {
                session.manager().globalVariables().set(name, checked(session, name, typed, value));
            }
        } else {
            // As MySQL: SET SESSION ... = DEFAULT takes the global value.
            session.setVariable(name, value != null ? checked(session, name, typed, value)
                    : typed != null && !typed.scope().hasGlobal() ? typed.defaultValue()
                    : session.manager().globalVariables().value("global", name, Map.of(), Map.of()));
        }
    }

    /**
     * The text a system variable is set to: a name ({@code ON}, {@code utf8mb4}) and a literal as written (a string
     * without its quotes; the grammar gives a number alone as its text), anything else as its value; never NULL but
     * where the literal NULL is written.
     */
    private static String value(Session session, String name, SqlNode value) {
        if (value instanceof SqlIdentifier identifier && identifier.isSimple()) {
            return identifier.getSimple();
        }
        if (value instanceof SqlCharStringLiteral text) {
            return SqlLiteral.unchain(text).getValueAs(String.class);
        }
        if (value instanceof SqlLiteral literal) {
            return literal.getValue() == null ? "NULL" : literal.toValue();
        }
        Object evaluated = session.evaluate(VariableReferences.retyped(value, session.variableTypes()));
        if (evaluated == null) {
            throw new DuetException(ErrorCode.WRONG_VALUE_FOR_VARIABLE, "Variable '" + name
                    + "' can't be set to the value of 'NULL'");
        }
        return String.valueOf(evaluated);
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
}
