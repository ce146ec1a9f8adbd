package io.duetdb.learner.internal.schema;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.duetdb.proto.coprocessor.FieldType;

/**
 * The columns of one table as a learner stores them: each column's id (the row codec's key), its coprocessor
 * type, and the value a row written before the column existed reads as (in the coprocessor's form). Columns
 * whose values do not travel to coprocessors (unsigned integers) are not stored, but their ids are known.
 */
public record TableSchema(long tableId, long schemaVersion, List<Column> columns, Set<Integer> columnIds) {
    public record Column(int id, FieldType type, Object originDefault) {
        public Column {
            requireNonNull(type, "type is null");
        }
    }

    public TableSchema {
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        columnIds = Set.copyOf(requireNonNull(columnIds, "columnIds is null"));
    }

    public Map<Integer, Column> byId() {
        Map<Integer, Column> byId = new LinkedHashMap<>();
        for (Column column : columns) {
            byId.put(column.id(), column);
        }
        return byId;
    }
}
