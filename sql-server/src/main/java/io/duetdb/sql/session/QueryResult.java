package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** Rows of a query, each an array of column values (Java values of the columns' types, or null). */
public record QueryResult(List<ResultColumn> columns, List<Object[]> rows) implements StatementResult {
    public QueryResult {
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(rows, "rows is null");
    }
}
