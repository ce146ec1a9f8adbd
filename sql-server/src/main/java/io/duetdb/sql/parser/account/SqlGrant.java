package io.duetdb.sql.parser.account;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * GRANT privilege [, ...] ON [TABLE] level TO user [WITH GRANT OPTION] ({@code grant} true), or REVOKE privilege
 * [, ...] ON [TABLE] level FROM user. Privileges are their words in upper case (ALL PRIVILEGES, CREATE USER, ...);
 * the level is *, *.*, db.*, db.table or table, without quotes.
 */
public final class SqlGrant extends DuetSqlCall {
    private final boolean grant;
    private final List<String> privileges;
    private final String level;
    private final AccountName account;
    private final boolean withGrantOption;

    public SqlGrant(SqlParserPos pos, boolean grant, List<String> privileges, String level, AccountName account,
            boolean withGrantOption) {
        super(pos, grant ? "GRANT" : "REVOKE");
        this.grant = grant;
        this.privileges = List.copyOf(privileges);
        this.level = requireNonNull(level, "level is null");
        this.account = requireNonNull(account, "account is null");
        this.withGrantOption = withGrantOption;
    }

    /** True for GRANT, false for REVOKE. */
    public boolean grant() {
        return grant;
    }

    public List<String> privileges() {
        return privileges;
    }

    public String level() {
        return level;
    }

    public AccountName account() {
        return account;
    }

    public boolean withGrantOption() {
        return withGrantOption;
    }

    @Override
    protected List<SqlNode> operands() {
        return List.of();
    }
}
