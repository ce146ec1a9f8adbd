package io.duetdb.sql.parser.dml;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * MySQL's {@code EXPLAIN [ANALYZE] [FORMAT = name] query} (also spelled DESCRIBE or DESC): the query may carry a
 * locking clause ({@link SqlQueryWithLocking}). The format is accepted and TiDB's row format always answered.
 */
public final class SqlExplainQuery extends DuetSqlCall {
    private final SqlNode query;
    private final boolean analyze;

    public SqlExplainQuery(SqlParserPos pos, SqlNode query, boolean analyze) {
        super(pos, "EXPLAIN");
        this.query = requireNonNull(query, "query is null");
        this.analyze = analyze;
    }

    /** The query explained, possibly a {@link SqlQueryWithLocking}. */
    public SqlNode query() {
        return query;
    }

    /** Whether the query runs and its operators report what they did (EXPLAIN ANALYZE). */
    public boolean analyze() {
        return analyze;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(query);
    }
}
