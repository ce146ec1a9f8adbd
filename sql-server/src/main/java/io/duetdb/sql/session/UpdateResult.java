package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

/** The OK of a statement without rows: affected rows, the last AUTO_INCREMENT id it generated, a note. */
public record UpdateResult(long affectedRows, long lastInsertId, String info) implements StatementResult {
    public static final UpdateResult NONE = new UpdateResult(0, 0, "");

    public UpdateResult {
        requireNonNull(info, "info is null");
    }

    public static UpdateResult affected(long rows) {
        return new UpdateResult(rows, 0, "");
    }
}
