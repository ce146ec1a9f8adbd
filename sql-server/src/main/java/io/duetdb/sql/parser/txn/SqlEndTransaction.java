package io.duetdb.sql.parser.txn;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** COMMIT [WORK] or ROLLBACK [WORK]: the end of the session's transaction. */
public final class SqlEndTransaction extends DuetSqlCall {
    private final boolean commit;

    public SqlEndTransaction(SqlParserPos pos, boolean commit) {
        super(pos, commit ? "COMMIT" : "ROLLBACK");
        this.commit = commit;
    }

    /** COMMIT; false for ROLLBACK. */
    public boolean commit() {
        return commit;
    }

    @Override
    protected List<SqlNode> operands() {
        return List.of();
    }
}
