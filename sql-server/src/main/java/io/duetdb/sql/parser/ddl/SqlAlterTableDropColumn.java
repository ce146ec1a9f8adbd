package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER TABLE ... DROP [COLUMN] [IF EXISTS] name. */
public final class SqlAlterTableDropColumn extends DuetSqlCall {
    private final SqlIdentifier name;
    private final boolean ifExists;

    public SqlAlterTableDropColumn(SqlParserPos pos, SqlIdentifier name, boolean ifExists) {
        super(pos, "ALTER TABLE DROP COLUMN");
        this.name = name;
        this.ifExists = ifExists;
    }

    public SqlIdentifier name() {
        return name;
    }

    public boolean ifExists() {
        return ifExists;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(name);
    }
}
