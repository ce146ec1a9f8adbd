package io.duetdb.sql.parser.session;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * {@code SET [GLOBAL | SESSION] TRANSACTION characteristic [, ...]}: an isolation level
 * ({@code ISOLATION LEVEL READ UNCOMMITTED | READ COMMITTED | REPEATABLE READ | SERIALIZABLE}) and an access mode
 * ({@code READ ONLY | READ WRITE}), each possibly absent.
 */
public final class SqlSetTransaction extends DuetSqlCall {
    /** What the characteristics hold for: without GLOBAL or SESSION, the next transaction only (MySQL's rule). */
    public enum Scope {
        NEXT_TRANSACTION,
        SESSION,
        GLOBAL
    }

    public enum Isolation {
        READ_UNCOMMITTED("READ-UNCOMMITTED"),
        READ_COMMITTED("READ-COMMITTED"),
        REPEATABLE_READ("REPEATABLE-READ"),
        SERIALIZABLE("SERIALIZABLE");

        private final String variableValue;

        Isolation(String variableValue) {
            this.variableValue = variableValue;
        }

        /** The value of transaction_isolation that names this level. */
        public String variableValue() {
            return variableValue;
        }
    }

    private final Scope scope;
    private final Isolation isolation;
    private final Boolean readOnly;

    /** {@code isolation} and {@code readOnly} are null when the statement does not name them. */
    public SqlSetTransaction(SqlParserPos pos, Scope scope, Isolation isolation, Boolean readOnly) {
        super(pos, "SET TRANSACTION");
        this.scope = requireNonNull(scope, "scope is null");
        this.isolation = isolation;
        this.readOnly = readOnly;
    }

    public Scope scope() {
        return scope;
    }

    public Isolation isolation() {
        return isolation;
    }

    public Boolean readOnly() {
        return readOnly;
    }

    @Override
    protected List<SqlNode> operands() {
        return List.of();
    }
}
