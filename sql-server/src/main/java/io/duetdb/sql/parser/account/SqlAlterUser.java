package io.duetdb.sql.parser.account;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER USER [IF EXISTS] user IDENTIFIED [WITH plugin] [BY 'password']: a new password, and maybe plugin. */
public final class SqlAlterUser extends DuetSqlCall {
    private final UserSpecification user;

    public SqlAlterUser(SqlParserPos pos, UserSpecification user) {
        super(pos, "ALTER USER");
        this.user = requireNonNull(user, "user is null");
    }

    public UserSpecification user() {
        return user;
    }

    @Override
    protected List<SqlNode> operands() {
        return List.of();
    }
}
