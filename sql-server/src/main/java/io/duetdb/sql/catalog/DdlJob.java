package io.duetdb.sql.catalog;

import static java.util.Objects.requireNonNull;

import java.util.Locale;

import io.duetdb.common.catalog.SchemaState;

/**
 * The record of one DDL job (TiDB's ADMIN SHOW DDL JOBS): what it changes, the schema state it reached, the rows
 * an index backfill has written, and when it was created, started and ended (epoch milliseconds; end 0 while it
 * runs). Written in the job's own catalog transactions as it moves, so every server can list it.
 */
public record DdlJob(long id, String type, String databaseName, String tableName, long schemaId, long tableId,
        String schemaState, long rowCount, long createTimeMillis, long startTimeMillis, long endTimeMillis,
        State state) {
    /** TiDB's spelling of a schema state for an object that no longer exists (dropped, or rolled back). */
    public static final String NO_SCHEMA_STATE = "none";

    public enum State {
        RUNNING,
        /** Done, and every server uses the resulting schema. */
        SYNCED,
        /** Stopped by KILL QUERY; its changes were undone. */
        CANCELLED,
        /** Failed; its changes were undone where they had begun. */
        FAILED;

        public String text() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public DdlJob {
        requireNonNull(type, "type is null");
        requireNonNull(databaseName, "databaseName is null");
        requireNonNull(tableName, "tableName is null");
        requireNonNull(schemaState, "schemaState is null");
        requireNonNull(state, "state is null");
    }

    /** As TiDB shows it: "delete only", "write reorganization", "public". */
    public static String schemaStateText(SchemaState state) {
        return state.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    public DdlJob withId(long newId) {
        return new DdlJob(newId, type, databaseName, tableName, schemaId, tableId, schemaState, rowCount,
                createTimeMillis, startTimeMillis, endTimeMillis, state);
    }

    public DdlJob withObject(String newDatabaseName, String newTableName, long newSchemaId, long newTableId,
            String newSchemaState) {
        return new DdlJob(id, type, newDatabaseName, newTableName, newSchemaId, newTableId, newSchemaState, rowCount,
                createTimeMillis, startTimeMillis, endTimeMillis, state);
    }

    public DdlJob withSchemaState(String newSchemaState) {
        return new DdlJob(id, type, databaseName, tableName, schemaId, tableId, newSchemaState, rowCount,
                createTimeMillis, startTimeMillis, endTimeMillis, state);
    }

    public DdlJob withRowCount(long newRowCount) {
        return new DdlJob(id, type, databaseName, tableName, schemaId, tableId, schemaState, newRowCount,
                createTimeMillis, startTimeMillis, endTimeMillis, state);
    }

    public DdlJob finished(State newState, long endMillis) {
        return new DdlJob(id, type, databaseName, tableName, schemaId, tableId, schemaState, rowCount,
                createTimeMillis, startTimeMillis, endMillis, newState);
    }
}
