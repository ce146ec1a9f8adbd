package io.duetdb.sql.parser.dml;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** A query with FOR UPDATE, FOR SHARE or LOCK IN SHARE MODE. */
public final class SqlQueryWithLocking extends DuetSqlCall {
    public enum Mode { FOR_UPDATE, SHARE }

    /** What a locking read does about rows another transaction holds: wait, fail at once, or pass them by. */
    public enum WaitPolicy { WAIT, NOWAIT, SKIP_LOCKED }

    private final SqlNode query;
    private final Mode mode;
    private final WaitPolicy waitPolicy;

    public SqlQueryWithLocking(SqlParserPos pos, SqlNode query, Mode mode) {
        this(pos, query, mode, WaitPolicy.WAIT);
    }

    public SqlQueryWithLocking(SqlParserPos pos, SqlNode query, Mode mode, WaitPolicy waitPolicy) {
        super(pos, "QUERY WITH LOCKING");
        this.query = query;
        this.mode = mode;
        this.waitPolicy = requireNonNull(waitPolicy, "waitPolicy is null");
    }

    public SqlNode query() {
        return query;
    }

    public Mode mode() {
        return mode;
    }

    public WaitPolicy waitPolicy() {
        return waitPolicy;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(query);
    }
}
