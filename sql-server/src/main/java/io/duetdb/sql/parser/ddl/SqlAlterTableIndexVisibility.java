package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER TABLE ... ALTER INDEX name {VISIBLE | INVISIBLE} (MySQL 8.0's invisible indexes). */
public final class SqlAlterTableIndexVisibility extends DuetSqlCall {
    private final SqlIdentifier index;
    private final boolean visible;

    public SqlAlterTableIndexVisibility(SqlParserPos pos, SqlIdentifier index, boolean visible) {
        super(pos, "ALTER TABLE ALTER INDEX");
        this.index = index;
        this.visible = visible;
    }

    public SqlIdentifier index() {
        return index;
    }

    public boolean visible() {
        return visible;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(index);
    }
}
