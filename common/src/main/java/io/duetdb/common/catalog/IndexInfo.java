package io.duetdb.common.catalog;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** An index over some columns of its table (by column name); PRIMARY is the primary key's index. */
public record IndexInfo(long id, String name, List<String> columns, boolean unique, boolean primary,
        SchemaState state) {
    public static final String PRIMARY_NAME = "PRIMARY";

    public IndexInfo {
        requireNonNull(name, "name is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(state, "state is null");
    }

    public IndexInfo withState(SchemaState newState) {
        return new IndexInfo(id, name, columns, unique, primary, newState);
    }

    /** Whether the index's first columns are {@code leading}, in order (names compared in any case). */
    public boolean startsWith(List<String> leading) {
        if (columns.size() < leading.size()) {
            return false;
        }
        for (int i = 0; i < leading.size(); i++) {
            if (!columns.get(i).equalsIgnoreCase(leading.get(i))) {
                return false;
            }
        }
        return true;
    }
}
