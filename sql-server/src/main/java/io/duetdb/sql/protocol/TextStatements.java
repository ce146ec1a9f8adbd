package io.duetdb.sql.protocol;

import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import io.duetdb.sql.parser.StatementParser;
import io.duetdb.sql.parser.account.SqlAlterUser;
import io.duetdb.sql.parser.account.SqlCreateUser;
import io.duetdb.sql.parser.account.SqlDropUser;
import io.duetdb.sql.parser.account.SqlFlushPrivileges;
import io.duetdb.sql.parser.account.SqlGrant;
import io.duetdb.sql.parser.account.SqlSetPassword;
import io.duetdb.sql.parser.account.SqlShowGrants;
import io.duetdb.sql.parser.bulk.SqlAdminChecksumTable;
import io.duetdb.sql.parser.ddl.SqlAdminShowDdlJobs;
import io.duetdb.sql.parser.session.SqlKill;
import io.duetdb.sql.parser.session.SqlSetTransaction;
import io.duetdb.sql.parser.session.SqlSetVariables;
import io.duetdb.sql.parser.session.SqlUseDatabase;
import io.duetdb.sql.parser.show.SqlShow;
import io.duetdb.sql.parser.txn.SqlEndTransaction;
import io.duetdb.sql.parser.txn.SqlStartTransaction;

/**
 * Statements a client may prepare that the session answers from their text rather than through the planner:
 * transaction control, SET, SHOW (and DESCRIBE t), USE, KILL, ADMIN and the account statements. MySQL prepares
 * them (sysbench prepares BEGIN and COMMIT, for one); the protocol handler keeps their text under a statement id of
 * its own and runs them as COM_QUERY would, answering in the binary protocol.
 */
final class TextStatements {
    private TextStatements() {
    }

    /**
     * True for such a statement without placeholders ({@code SET @x = ?} goes to the session, which binds it as
     * text); false for anything else, and for text the parser refuses (the session's prepare reports the error).
     */
    static boolean isTextStatement(String sql) {
        SqlNode statement;
        try {
            statement = StatementParser.parse(sql);
        } catch (RuntimeException e) {
            return false;
        }
        return answeredFromText(statement) && !hasPlaceholder(statement);
    }

    private static boolean answeredFromText(SqlNode statement) {
        return statement instanceof SqlStartTransaction || statement instanceof SqlEndTransaction
                || statement instanceof SqlSetVariables || statement instanceof SqlSetTransaction
                || statement instanceof SqlSetPassword || statement instanceof SqlShow
                || statement instanceof SqlShowGrants || statement instanceof SqlUseDatabase
                || statement instanceof SqlKill || statement instanceof SqlCreateUser
                || statement instanceof SqlDropUser || statement instanceof SqlAlterUser
                || statement instanceof SqlGrant || statement instanceof SqlFlushPrivileges
                || statement instanceof SqlAdminShowDdlJobs || statement instanceof SqlAdminChecksumTable;
    }

    private static boolean hasPlaceholder(SqlNode statement) {
        boolean[] found = {false};
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlDynamicParam parameter) {
                found[0] = true;
                return null;
            }
        });
        return found[0];
    }
}
