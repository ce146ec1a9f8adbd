package io.duetdb.sql.parser.account;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** FLUSH [NO_WRITE_TO_BINLOG | LOCAL] PRIVILEGES: nothing to reload here, accounts are read from the catalog. */
public final class SqlFlushPrivileges extends DuetSqlCall {
    public SqlFlushPrivileges(SqlParserPos pos) {
        super(pos, "FLUSH PRIVILEGES");
    }

    @Override
    protected List<SqlNode> operands() {
        return List.of();
    }
}
