package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER TABLE ... RENAME COLUMN old TO new, or RENAME {INDEX | KEY} old TO new. */
public final class SqlAlterTableRenameItem extends DuetSqlCall {
    /** What is renamed. */
    public enum Item {
        COLUMN,
        INDEX
    }

    private final Item item;
    private final SqlIdentifier from;
    private final SqlIdentifier to;

    public SqlAlterTableRenameItem(SqlParserPos pos, Item item, SqlIdentifier from, SqlIdentifier to) {
        super(pos, "ALTER TABLE RENAME " + item);
        this.item = item;
        this.from = from;
        this.to = to;
    }

    public Item item() {
        return item;
    }

    public SqlIdentifier from() {
        return from;
    }

    public SqlIdentifier to() {
        return to;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(from, to);
    }
}
