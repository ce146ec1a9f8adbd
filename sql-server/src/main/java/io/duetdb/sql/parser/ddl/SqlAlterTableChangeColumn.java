package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * ALTER TABLE ... CHANGE [COLUMN] old definition [FIRST | AFTER column], and MODIFY [COLUMN] definition [...],
 * which is CHANGE with the column's own name.
 */
public final class SqlAlterTableChangeColumn extends DuetSqlCall {
    private final SqlIdentifier oldName;
    private final SqlColumnDefinition column;
    private final boolean first;
    private final SqlIdentifier after;

    public SqlAlterTableChangeColumn(SqlParserPos pos, SqlIdentifier oldName, SqlColumnDefinition column, boolean first,
            SqlIdentifier after) {
        super(pos, "ALTER TABLE CHANGE COLUMN");
        this.oldName = oldName;
        this.column = column;
        this.first = first;
        this.after = after;
    }

    public SqlIdentifier oldName() {
        return oldName;
    }

    public SqlColumnDefinition column() {
        return column;
    }

    public boolean first() {
        return first;
    }

    public SqlIdentifier after() {
        return after;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(oldName, column, after);
    }
}
