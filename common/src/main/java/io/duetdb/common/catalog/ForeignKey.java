package io.duetdb.common.catalog;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A FOREIGN KEY constraint as declared: its columns refer to {@code referencedColumns} of
 * {@code referencedDatabase.referencedTable}; the actions are MySQL's words (RESTRICT, CASCADE, SET NULL, SET DEFAULT,
 * NO ACTION). Kept and shown (SHOW CREATE TABLE, information_schema); not enforced.
 */
public record ForeignKey(String name, List<String> columns, String referencedDatabase, String referencedTable,
        List<String> referencedColumns, String onDelete, String onUpdate) {
    public ForeignKey {
        requireNonNull(name, "name is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(referencedDatabase, "referencedDatabase is null");
        requireNonNull(referencedTable, "referencedTable is null");
        referencedColumns = List.copyOf(requireNonNull(referencedColumns, "referencedColumns is null"));
        onDelete = onDelete == null ? "NO ACTION" : onDelete;
        onUpdate = onUpdate == null ? "NO ACTION" : onUpdate;
        if (columns.isEmpty() || columns.size() != referencedColumns.size()) {
            throw new IllegalArgumentException("a foreign key needs as many referenced columns as columns");
        }
    }
}
