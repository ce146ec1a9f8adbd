package io.duetdb.sql.parser.dml;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * A query with MySQL 8.0's locking clause: {@code FOR UPDATE | FOR SHARE [OF t [, t] ...] [NOWAIT | SKIP LOCKED]},
 * or {@code LOCK IN SHARE MODE}.
 */
public final class SqlQueryWithLocking extends DuetSqlCall {
    public enum Mode { FOR_UPDATE, SHARE }

    /** What a locking read does on a row another transaction has locked. */
    public enum WaitPolicy { WAIT, NOWAIT, SKIP_LOCKED }

    private final SqlNode query;
    private final Mode mode;
    private final WaitPolicy waitPolicy;
    private final SqlNodeList tables;

    public SqlQueryWithLocking(SqlParserPos pos, SqlNode query, Mode mode) {
        this(pos, query, mode, WaitPolicy.WAIT, SqlNodeList.EMPTY);
    }

    /** {@code tables}: the tables named after OF (empty when the clause names none). */
    public SqlQueryWithLocking(SqlParserPos pos, SqlNode query, Mode mode, WaitPolicy waitPolicy, SqlNodeList tables) {
        super(pos, "QUERY WITH LOCKING");
        this.query = requireNonNull(query, "query is null");
        this.mode = requireNonNull(mode, "mode is null");
        this.waitPolicy = requireNonNull(waitPolicy, "waitPolicy is null");
        this.tables = requireNonNull(tables, "tables is null");
    }

    public SqlNode query() {
        return query;
    }

    public Mode mode() {
        return mode;
    }

    public WaitPolicy waitPolicy() {
        return waitPolicy;
    }

    /** The tables named after OF, whose rows alone the clause locks; empty for all the query reads. */
    public List<SqlIdentifier> tables() {
        return tables.stream().map(SqlIdentifier.class::cast).toList();
    }

    /** The clause as TiDB's EXPLAIN shows it: {@code for update}, {@code for share nowait}, ... */
    public String description() {
        StringBuilder text = new StringBuilder(mode == Mode.FOR_UPDATE ? "for update" : "for share");
        if (!tables.isEmpty()) {
            text.append(" of ").append(String.join(", ", tables().stream().map(table -> String.join(".", table.names))
                    .toList()));
        }
        if (waitPolicy == WaitPolicy.NOWAIT) {
            text.append(" nowait");
        } else if (waitPolicy == WaitPolicy.SKIP_LOCKED) {
            text.append(" skip locked");
        }
        return text.toString();
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(query);
    }
}
