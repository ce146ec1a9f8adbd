package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER TABLE ... ALTER [COLUMN] c SET DEFAULT value, or DROP DEFAULT ({@code defaultValue} null). */
public final class SqlAlterTableColumnDefault extends DuetSqlCall {
    private final SqlIdentifier column;
    private final SqlNode defaultValue;

    public SqlAlterTableColumnDefault(SqlParserPos pos, SqlIdentifier column, SqlNode defaultValue) {
        super(pos, "ALTER TABLE ALTER COLUMN");
        this.column = column;
        this.defaultValue = defaultValue;
    }

    public SqlIdentifier column() {
        return column;
    }

    /** The new default; null for DROP DEFAULT. */
    public SqlNode defaultValue() {
        return defaultValue;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(column, defaultValue);
    }
}
