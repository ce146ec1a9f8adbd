package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** RENAME TABLE a TO b [, c TO d ...]. */
public final class SqlRenameTable extends DuetSqlCall {
    private final SqlNodeList from;
    private final SqlNodeList to;

    public SqlRenameTable(SqlParserPos pos, SqlNodeList from, SqlNodeList to) {
        super(pos, "RENAME TABLE");
        this.from = from;
        this.to = to;
    }

    public SqlNodeList from() {
        return from;
    }

    public SqlNodeList to() {
        return to;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(from, to);
    }
}
