package io.duetdb.sql.parser.txn;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * LOCK TABLES t [[AS] alias] {READ [LOCAL] | [LOW_PRIORITY] WRITE} [, ...], or UNLOCK TABLES (no tables).
 */
public final class SqlLockTables extends DuetSqlCall {
    private final boolean unlock;
    private final SqlNodeList tables;

    public SqlLockTables(SqlParserPos pos, boolean unlock, SqlNodeList tables) {
        super(pos, unlock ? "UNLOCK TABLES" : "LOCK TABLES");
        this.unlock = unlock;
        this.tables = tables;
    }

    public boolean unlock() {
        return unlock;
    }

    public List<SqlIdentifier> tables() {
        return identifiers(tables);
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(tables);
    }
}
