package io.duetdb.sql.parser.dml;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** MySQL's single-table DELETE with ORDER BY and LIMIT. */
public final class SqlMySqlDelete extends DuetSqlCall {
    private final SqlIdentifier table;
    private final SqlIdentifier alias;
    private final SqlNode where;
    private final SqlNodeList orderBy;
    private final SqlNode limit;

    public SqlMySqlDelete(SqlParserPos pos, SqlIdentifier table, SqlIdentifier alias, SqlNode where, SqlNodeList orderBy, SqlNode limit) {
        super(pos, "MY SQL DELETE");
        this.table = table;
        this.alias = alias;
        this.where = where;
        this.orderBy = orderBy;
        this.limit = limit;
    }

    public SqlIdentifier table() {
        return table;
    }

    public SqlIdentifier alias() {
        return alias;
    }

    public SqlNode where() {
        return where;
    }

    public SqlNodeList orderBy() {
        return orderBy;
    }

    public SqlNode limit() {
        return limit;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(table, alias, where, orderBy, limit);
    }
}
