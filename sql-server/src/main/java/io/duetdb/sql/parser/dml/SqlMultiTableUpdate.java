package io.duetdb.sql.parser.dml;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** MySQL's multiple-table UPDATE: UPDATE table_references SET assignments [WHERE condition]. */
public final class SqlMultiTableUpdate extends DuetSqlCall {
    private final SqlNode from;
    private final SqlNodeList assignments;
    private final SqlNode where;
    private final SqlNodeList orderBy;
    private final SqlNode limit;

    public SqlMultiTableUpdate(SqlParserPos pos, SqlNode from, SqlNodeList assignments, SqlNode where,
            SqlNodeList orderBy, SqlNode limit) {
        super(pos, "MULTIPLE-TABLE UPDATE");
        this.from = from;
        this.assignments = assignments;
        this.where = where;
        this.orderBy = orderBy;
        this.limit = limit;
    }

    /** As written; MySQL refuses ORDER BY and LIMIT with several tables. */
    public SqlNodeList orderBy() {
        return orderBy;
    }

    public SqlNode limit() {
        return limit;
    }

    /** The table references, joined as a SELECT's FROM clause joins them. */
    public SqlNode from() {
        return from;
    }

    /** Each a call of {@code =} with the (possibly qualified) column and its new value. */
    public SqlNodeList assignments() {
        return assignments;
    }

    public SqlNode where() {
        return where;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(from, assignments, where, orderBy, limit);
    }
}
