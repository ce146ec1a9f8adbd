package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER TABLE ... RENAME [TO | AS] name. */
public final class SqlAlterTableRename extends DuetSqlCall {
    private final SqlIdentifier name;

    public SqlAlterTableRename(SqlParserPos pos, SqlIdentifier name) {
        super(pos, "ALTER TABLE RENAME");
        this.name = name;
    }

    public SqlIdentifier name() {
        return name;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(name);
    }
}
