package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * ALTER TABLE ... ALTER [COLUMN] c SET DEFAULT value, SET DEFAULT (expression) (with its text), or DROP DEFAULT
 * ({@code defaultValue} null).
 */
public final class SqlAlterTableColumnDefault extends DuetSqlCall {
    private final SqlIdentifier column;
    private final SqlNode defaultValue;
    private final String defaultText;

    public SqlAlterTableColumnDefault(SqlParserPos pos, SqlIdentifier column, SqlNode defaultValue,
            String defaultText) {
        super(pos, "ALTER TABLE ALTER COLUMN");
        this.column = column;
        this.defaultValue = defaultValue;
        this.defaultText = defaultText;
    }

    public SqlIdentifier column() {
        return column;
    }

    /** The new default; null for DROP DEFAULT. */
    public SqlNode defaultValue() {
        return defaultValue;
    }

    /** The text of a DEFAULT (expression) as written, without the parentheses; null for any other default. */
    public String defaultText() {
        return defaultText;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(column, defaultValue);
    }
}
