package io.duetdb.common.catalog;

/**
 * The states of a schema object during an online change (F1's protocol, as TiDB uses it). An index being
 * added goes DELETE_ONLY, WRITE_ONLY, WRITE_REORGANIZATION (backfill), PUBLIC; one being dropped goes the
 * other way. Servers differ by at most one state at any time, which is what keeps every write consistent.
 */
public enum SchemaState {
    DELETE_ONLY,
    WRITE_ONLY,
    WRITE_REORGANIZATION,
    DELETE_REORGANIZATION,
    PUBLIC;

    /** Writers maintain the object: its entries are added and removed with the rows. */
    public boolean isWritable() {
        return this == WRITE_ONLY || this == WRITE_REORGANIZATION || this == PUBLIC;
    }
}
