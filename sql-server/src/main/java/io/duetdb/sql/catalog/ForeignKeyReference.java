package io.duetdb.sql.catalog;

import static java.util.Objects.requireNonNull;

import io.duetdb.common.catalog.ForeignKey;
import io.duetdb.common.catalog.TableInfo;

/** A foreign key of {@code table} (the child), as the table it references sees it. */
public record ForeignKeyReference(TableInfo table, ForeignKey foreignKey) {
    public ForeignKeyReference {
        requireNonNull(table, "table is null");
        requireNonNull(foreignKey, "foreignKey is null");
    }
}
