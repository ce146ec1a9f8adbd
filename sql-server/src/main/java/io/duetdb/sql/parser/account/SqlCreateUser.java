package io.duetdb.sql.parser.account;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** CREATE USER [IF NOT EXISTS] user [IDENTIFIED ...] [, ...]. */
public final class SqlCreateUser extends DuetSqlCall {
    private final boolean ifNotExists;
    private final List<UserSpecification> users;

    public SqlCreateUser(SqlParserPos pos, boolean ifNotExists, List<UserSpecification> users) {
        super(pos, "CREATE USER");
        this.ifNotExists = ifNotExists;
        this.users = List.copyOf(users);
    }

    public boolean ifNotExists() {
        return ifNotExists;
    }

    public List<UserSpecification> users() {
        return users;
    }

    @Override
    protected List<SqlNode> operands() {
        return List.of();
    }
}
