package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * Rows of a query, each an array of column values (Java values of the columns' types, or null), and the rows
 * FOUND_ROWS() answers after it: the rows returned, or for SELECT SQL_CALC_FOUND_ROWS those before the LIMIT.
 */
public record QueryResult(List<ResultColumn> columns, List<Object[]> rows, long foundRows) implements StatementResult {
    public QueryResult {
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(rows, "rows is null");
    }

    public QueryResult(List<ResultColumn> columns, List<Object[]> rows) {
        this(columns, rows, rows.size());
    }
}
