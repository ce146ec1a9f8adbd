package io.duetdb.sql.parser.session;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** KILL [CONNECTION | QUERY] id: ends a connection, or only the statement it runs. */
public final class SqlKill extends DuetSqlCall {
    private final boolean queryOnly;
    private final long connectionId;

    public SqlKill(SqlParserPos pos, boolean queryOnly, long connectionId) {
        super(pos, queryOnly ? "KILL QUERY" : "KILL");
        this.queryOnly = queryOnly;
        this.connectionId = connectionId;
    }

    public boolean queryOnly() {
        return queryOnly;
    }

    public long connectionId() {
        return connectionId;
    }

    @Override
    protected List<SqlNode> operands() {
        return List.of();
    }
}
