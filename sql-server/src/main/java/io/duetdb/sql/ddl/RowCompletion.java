package io.duetdb.sql.ddl;

import java.util.function.Consumer;

import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * What the session's writers compute in a table's rows (generated columns, then CHECK constraints), for DDL that
 * computes a new column in the rows a table already holds, so that the backfill and the writers agree.
 */
@FunctionalInterface
public interface RowCompletion {
    /** For DDL run without a session: it cannot compute rows. */
    RowCompletion UNAVAILABLE = table -> {
        throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "computing the rows of table '" + table.name()
                + "' needs a session");
    };

    /**
     * Completes full rows of {@code table} in place: every column it stores, in catalog order, in the schema state
     * given (columns being added included). Throws as a write of the row would (1048, 1264, 3819 ...).
     */
    Consumer<Object[]> forTable(TableInfo table);
}
