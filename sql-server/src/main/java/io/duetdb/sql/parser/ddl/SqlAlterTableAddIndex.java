package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER TABLE ... ADD {PRIMARY KEY | UNIQUE | INDEX | KEY} .... */
public final class SqlAlterTableAddIndex extends DuetSqlCall {
    private final SqlIndexDefinition index;

    public SqlAlterTableAddIndex(SqlParserPos pos, SqlIndexDefinition index) {
        super(pos, "ALTER TABLE ADD INDEX");
        this.index = index;
    }

    public SqlIndexDefinition index() {
        return index;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(index);
    }
}
