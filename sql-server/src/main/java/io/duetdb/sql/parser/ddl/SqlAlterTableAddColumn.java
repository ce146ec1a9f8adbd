package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER TABLE ... ADD [COLUMN] [IF NOT EXISTS] definition [FIRST | AFTER column]. */
public final class SqlAlterTableAddColumn extends DuetSqlCall {
    private final SqlColumnDefinition column;
    private final boolean ifNotExists;
    private final boolean first;
    private final SqlIdentifier after;

    public SqlAlterTableAddColumn(SqlParserPos pos, SqlColumnDefinition column, boolean ifNotExists, boolean first, SqlIdentifier after) {
        super(pos, "ALTER TABLE ADD COLUMN");
        this.column = column;
        this.ifNotExists = ifNotExists;
        this.first = first;
        this.after = after;
    }

    public SqlColumnDefinition column() {
        return column;
    }

    public boolean ifNotExists() {
        return ifNotExists;
    }

    public boolean first() {
        return first;
    }

    public SqlIdentifier after() {
        return after;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(column, after);
    }
}
