package io.duetdb.sql.session;

import java.util.List;

import org.apache.calcite.sql.SqlHint;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;

/**
 * SELECT SQL_CALC_FOUND_ROWS ... LIMIT (the lexer hands the modifier over as a hint of the SELECT): the query runs
 * without its LIMIT, FOUND_ROWS() then answers how many rows that gave, and the client gets the rows the LIMIT keeps,
 * as MySQL computes it (the whole result, which is why MySQL 8.0 deprecates the modifier).
 */
final class FoundRows {
    static final String HINT = "SQL_CALC_FOUND_ROWS";

    private FoundRows() {
    }

    /** A query without its LIMIT, and the rows that LIMIT keeps. */
    record Unlimited(SqlNode query, long offset, long fetch) {
        List<Object[]> limit(List<Object[]> rows) {
            int from = (int) Math.min(rows.size(), offset);
            int to = (int) Math.min(rows.size(), from + fetch);
            return rows.subList(from, to);
        }
    }

    /** The query without its LIMIT when it asks for its found rows and its LIMIT is constant; null otherwise. */
    static Unlimited of(SqlNode query) {
        if (query instanceof SqlOrderBy orderBy && asks(orderBy.query) && constant(orderBy.offset)
                && constant(orderBy.fetch)) {
            SqlNode unlimited = orderBy.orderList.size() == 0 ? orderBy.query
                    : new SqlOrderBy(orderBy.getParserPosition(), orderBy.query, orderBy.orderList, null, null);
            return new Unlimited(unlimited, value(orderBy.offset, 0), value(orderBy.fetch, Long.MAX_VALUE));
        }
        if (query instanceof SqlSelect select && asks(select) && constant(select.getOffset())
                && constant(select.getFetch())) {
            long offset = value(select.getOffset(), 0);
            long fetch = value(select.getFetch(), Long.MAX_VALUE);
            // A copy: the statement's own tree keeps its LIMIT for its next execution.
            SqlSelect unlimited = (SqlSelect) select.clone(select.getParserPosition());
            unlimited.setOffset(null);
            unlimited.setFetch(null);
            return new Unlimited(unlimited, offset, fetch);
        }
        return null;
    }

    private static boolean asks(SqlNode query) {
        if (!(query instanceof SqlSelect select) || !select.hasHints()) {
            return false;
        }
        for (SqlNode hint : select.getHints()) {
            if (hint instanceof SqlHint named && named.getName().equalsIgnoreCase(HINT)) {
                return true;
            }
        }
        return false;
    }

    private static boolean constant(SqlNode node) {
        return node == null || node instanceof SqlNumericLiteral;
    }

    private static long value(SqlNode node, long absent) {
        return node == null ? absent : ((SqlNumericLiteral) node).getValueAs(Long.class);
    }
}
