package io.duetdb.sql.session;

import org.apache.calcite.sql.SqlIdentifier;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.sql.parser.txn.SqlLockTables;

/**
 * LOCK TABLES and UNLOCK TABLES as TiDB answers them without table locks (its default): the tables must exist and be
 * readable by the account, and no lock is taken: statements read consistent snapshots and transactions order the
 * writes, which is what mysqldump and migration tools lock tables for.
 */
final class LockTablesStatement {
    private LockTablesStatement() {
    }

    static StatementResult execute(Session session, SqlLockTables statement) {
        for (SqlIdentifier name : statement.tables()) {
            String[] qualified = session.qualifiedName(name);
            session.manager().latestInfoSchema().table(qualified[0], qualified[1])
                    .orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_TABLE, "Table '" + qualified[0] + "."
                            + qualified[1] + "' doesn't exist"));
            session.require(Privilege.SELECT, qualified[0], qualified[1]);
        }
        if (!statement.unlock()) {
            session.addWarning("LOCK TABLES takes no table locks here: every statement reads a consistent snapshot");
        }
        return UpdateResult.NONE;
    }
}
