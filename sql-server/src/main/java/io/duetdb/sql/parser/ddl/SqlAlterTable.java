package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER TABLE name action [, action ...]. */
public final class SqlAlterTable extends DuetSqlCall {
    private final SqlIdentifier table;
    private final SqlNodeList actions;

    public SqlAlterTable(SqlParserPos pos, SqlIdentifier table, SqlNodeList actions) {
        super(pos, "ALTER TABLE");
        this.table = table;
        this.actions = actions;
    }

    public SqlIdentifier table() {
        return table;
    }

    public SqlNodeList actions() {
        return actions;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(table, actions);
    }
}
