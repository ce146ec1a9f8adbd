package io.duetdb.sql.ddl;

import java.util.ArrayList;
import java.util.List;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.sql.catalog.DdlJob;

/** Catalog steps that move one column of a table to another schema state, or take it out of the table. */
final class ColumnStates {
    private ColumnStates() {
    }

    static void move(String[] name, int columnId, SchemaState state, DdlJobRecord job) {
        job.runDdl("column " + columnId + " of " + name[1] + " to " + state, (ddl, current) -> {
            TableInfo table = DdlExecutor.table(current, name);
            List<ColumnInfo> columns = new ArrayList<>();
            for (ColumnInfo column : table.columns()) {
                columns.add(column.id() == columnId ? column.withState(state) : column);
            }
            ddl.putTable(table.withColumnsAndIndexes(columns, table.indexes(), table.nextColumnId(),
                    table.nextIndexId()));
            job.schemaState(DdlJob.schemaStateText(state));
            return null;
        });
    }

    /**
     * Removes a column from the table's definition: a dropped column's last step, or an added one whose backfill
     * failed. Rows that hold a value for it keep it unread.
     */
    static void remove(String[] name, int columnId, String description, DdlJobRecord job) {
        job.runDdl(description, (ddl, current) -> {
            TableInfo table = DdlExecutor.table(current, name);
            List<ColumnInfo> columns = new ArrayList<>(table.columns());
            columns.removeIf(column -> column.id() == columnId);
            ddl.putTable(table.withColumnsAndIndexes(columns, table.indexes(), table.nextColumnId(),
                    table.nextIndexId()));
            job.schemaState(DdlJob.NO_SCHEMA_STATE);
            return null;
        });
    }
}
