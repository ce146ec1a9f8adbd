package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER TABLE ... RENAME COLUMN old TO new. */
public final class SqlAlterTableRenameColumn extends DuetSqlCall {
    private final SqlIdentifier from;
    private final SqlIdentifier to;

    public SqlAlterTableRenameColumn(SqlParserPos pos, SqlIdentifier from, SqlIdentifier to) {
        super(pos, "ALTER TABLE RENAME COLUMN");
        this.from = from;
        this.to = to;
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
