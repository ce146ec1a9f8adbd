package io.duetdb.sql.parser.txn;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * MySQL's {@code START TRANSACTION [READ ONLY | READ WRITE | WITH CONSISTENT SNAPSHOT] [, ...]} and TiDB's stale
 * read {@code START TRANSACTION READ ONLY AS OF TIMESTAMP expr}: a transaction that reads at that time and writes
 * nothing. A consistent snapshot is what every transaction here reads from its start timestamp.
 */
public final class SqlStartTransaction extends DuetSqlCall {
    private final boolean readOnly;
    private final SqlNode asOf;

    /** {@code asOf} is null without AS OF TIMESTAMP. */
    public SqlStartTransaction(SqlParserPos pos, boolean readOnly, SqlNode asOf) {
        super(pos, "START TRANSACTION");
        this.readOnly = readOnly;
        this.asOf = asOf;
    }

    public boolean readOnly() {
        return readOnly;
    }

    /** The time the transaction reads at (TiDB's AS OF TIMESTAMP), or null for a new timestamp. */
    public SqlNode asOf() {
        return asOf;
    }

    @Override
    protected List<SqlNode> operands() {
        return asOf == null ? List.of() : nodes(asOf);
    }
}
