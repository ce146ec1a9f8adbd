package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** What COM_STMT_PREPARE answers: the statement's id, its placeholder count and its result columns. */
public record PreparedStatementInfo(int id, int parameterCount, List<ResultColumn> columns) {
    public PreparedStatementInfo {
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
    }
}
