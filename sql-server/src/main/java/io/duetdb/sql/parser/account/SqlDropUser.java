package io.duetdb.sql.parser.account;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** DROP USER [IF EXISTS] user [, ...]. */
public final class SqlDropUser extends DuetSqlCall {
    private final boolean ifExists;
    private final List<AccountName> accounts;

    public SqlDropUser(SqlParserPos pos, boolean ifExists, List<AccountName> accounts) {
        super(pos, "DROP USER");
        this.ifExists = ifExists;
        this.accounts = List.copyOf(accounts);
    }

    public boolean ifExists() {
        return ifExists;
    }

    public List<AccountName> accounts() {
        return accounts;
    }

    @Override
    protected List<SqlNode> operands() {
        return List.of();
    }
}
