package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER TABLE ... with table options only (ENGINE = ..., COMMENT = ...). */
public final class SqlAlterTableOptions extends DuetSqlCall {
    private final SqlNodeList options;

    public SqlAlterTableOptions(SqlParserPos pos, SqlNodeList options) {
        super(pos, "ALTER TABLE OPTIONS");
        this.options = options;
    }

    public SqlNodeList options() {
        return options;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(options);
    }
}
