package io.duetdb.sql.parser.prepare;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** PREPARE name FROM {'statement' | @variable}. */
public final class SqlPrepare extends DuetSqlCall {
    private final SqlIdentifier name;
    private final SqlNode source;

    public SqlPrepare(SqlParserPos pos, SqlIdentifier name, SqlNode source) {
        super(pos, "PREPARE");
        this.name = name;
        this.source = source;
    }

    public String name() {
        return name.getSimple();
    }

    /** A string literal, or a user variable holding the statement's text. */
    public SqlNode source() {
        return source;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(name, source);
    }
}
