package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeFamily;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.parser.UserVariables;
import io.duetdb.sql.parser.prepare.SqlDeallocatePrepare;
import io.duetdb.sql.parser.prepare.SqlExecute;
import io.duetdb.sql.parser.prepare.SqlPrepare;

/**
 * MySQL's SQL-level prepared statements of one session (PREPARE, EXECUTE ... USING @v, DEALLOCATE PREPARE): names
 * for the statements the binary protocol prepares, so both share the prepared plan cache. Names ignore case.
 */
final class NamedPreparedStatements {
    private final Session session;
    private final Map<String, Integer> ids = new HashMap<>();

    NamedPreparedStatements(Session session) {
        this.session = requireNonNull(session, "session is null");
    }

    StatementResult prepare(SqlPrepare statement) {
        String text;
        SqlNode source = statement.source();
        String variable = UserVariables.name(source);
        if (variable != null) {
            Object value = session.userVariable(variable);
            // MySQL prepares the text of NULL, which is no statement.
            text = value == null ? "NULL" : String.valueOf(value);
        } else if (source instanceof SqlLiteral literal && literal.getValue() != null
                && literal.getTypeName().getFamily() == SqlTypeFamily.CHARACTER) {
            text = literal.getValueAs(String.class);
        } else {
            throw new DuetException(ErrorCode.PARSE_ERROR, "You have an error in your SQL syntax; check the manual that"
                    + " corresponds to your MySQL server version for the right syntax to use near '" + source
                    + "': PREPARE takes a string or a user variable");
        }
        String name = key(statement.name());
        Integer previous = ids.remove(name);
        if (previous != null) {
            session.closePrepared(previous);
        }
        ids.put(name, session.prepare(text).id());
        return new UpdateResult(0, 0, "Statement prepared");
    }

    StatementResult execute(SqlExecute statement) {
        int id = id(statement.name(), "EXECUTE");
        List<Object> parameters = new ArrayList<>();
        for (SqlNode argument : statement.arguments()) {
            String variable = UserVariables.name(argument);
            if (variable == null) {
                throw new DuetException(ErrorCode.PARSE_ERROR, "You have an error in your SQL syntax; check the manual"
                        + " that corresponds to your MySQL server version for the right syntax to use near '" + argument
                        + "': EXECUTE ... USING takes user variables");
            }
            parameters.add(session.userVariable(variable));
        }
        if (parameters.size() != session.preparedParameterCount(id)) {
            throw new DuetException(ErrorCode.WRONG_ARGUMENTS, "Incorrect arguments to EXECUTE");
        }
        return session.executePrepared(id, parameters);
    }

    StatementResult deallocate(SqlDeallocatePrepare statement) {
        int id = id(statement.name(), "DEALLOCATE PREPARE");
        ids.remove(key(statement.name()));
        session.closePrepared(id);
        return UpdateResult.NONE;
    }

    private int id(String name, String command) {
        Integer id = ids.get(key(name));
        if (id == null) {
            throw new DuetException(ErrorCode.UNKNOWN_STATEMENT_HANDLER, "Unknown prepared statement handler (" + name
                    + ") given to " + command);
        }
        return id;
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
