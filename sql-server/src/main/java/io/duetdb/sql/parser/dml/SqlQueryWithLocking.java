package io.duetdb.sql.parser.dml;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** A query with FOR UPDATE or LOCK IN SHARE MODE. */
public final class SqlQueryWithLocking extends DuetSqlCall {
    public enum Mode { FOR_UPDATE, SHARE }

    private final SqlNode query;
    private final Mode mode;

    public SqlQueryWithLocking(SqlParserPos pos, SqlNode query, Mode mode) {
        super(pos, "QUERY WITH LOCKING");
        this.query = query;
        this.mode = mode;
    }

    public SqlNode query() {
        return query;
    }

    public Mode mode() {
        return mode;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(query);
    }
}
