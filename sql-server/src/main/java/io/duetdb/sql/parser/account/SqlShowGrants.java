package io.duetdb.sql.parser.account;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** SHOW GRANTS [FOR user | CURRENT_USER[()]]; the account null for the session's own. */
public final class SqlShowGrants extends DuetSqlCall {
    private final AccountName account;

    public SqlShowGrants(SqlParserPos pos, AccountName account) {
        super(pos, "SHOW GRANTS");
        this.account = account;
    }

    public AccountName account() {
        return account;
    }

    @Override
    protected List<SqlNode> operands() {
        return List.of();
    }
}
