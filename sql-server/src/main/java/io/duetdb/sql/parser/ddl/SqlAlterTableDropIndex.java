package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER TABLE ... DROP {INDEX | KEY} [IF EXISTS] name, or DROP PRIMARY KEY (named PRIMARY). */
public final class SqlAlterTableDropIndex extends DuetSqlCall {
    private final SqlIdentifier name;
    private final boolean ifExists;

    public SqlAlterTableDropIndex(SqlParserPos pos, SqlIdentifier name, boolean ifExists) {
        super(pos, "ALTER TABLE DROP INDEX");
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
