package io.duetdb.sql.parser.account;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** SET PASSWORD [FOR user] = 'password' (or PASSWORD('password')); the account null for the session's own. */
public final class SqlSetPassword extends DuetSqlCall {
    private final AccountName account;
    private final String password;

    public SqlSetPassword(SqlParserPos pos, AccountName account, String password) {
        super(pos, "SET PASSWORD");
        this.account = account;
        this.password = requireNonNull(password, "password is null");
    }

    public AccountName account() {
        return account;
    }

    public String password() {
        return password;
    }

    @Override
    protected List<SqlNode> operands() {
        return List.of();
    }
}
