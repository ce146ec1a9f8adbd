package io.duetdb.sql.session;

/** What a statement returns to its client: rows, or a count of affected rows. */
public sealed interface StatementResult permits QueryResult, UpdateResult {
}
