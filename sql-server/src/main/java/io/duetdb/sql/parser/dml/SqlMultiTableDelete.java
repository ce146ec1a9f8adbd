package io.duetdb.sql.parser.dml;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * MySQL's multiple-table DELETE: DELETE t1[.*], ... FROM table_references [WHERE condition], or DELETE FROM
 * t1[.*], ... USING table_references [WHERE condition].
 */
public final class SqlMultiTableDelete extends DuetSqlCall {
    private final SqlNodeList targets;
    private final SqlNode from;
    private final SqlNode where;

    public SqlMultiTableDelete(SqlParserPos pos, SqlNodeList targets, SqlNode from, SqlNode where) {
        super(pos, "MULTIPLE-TABLE DELETE");
        this.targets = targets;
        this.from = from;
        this.where = where;
    }

    /** The tables rows are deleted from, as named (a table or an alias of the references), without {@code .*}. */
    public List<SqlIdentifier> targets() {
        return identifiers(targets);
    }

    public SqlNode from() {
        return from;
    }

    public SqlNode where() {
        return where;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(targets, from, where);
    }
}
