package io.duetdb.store.engine;

/** Point reads and cursors: what the live engine and its snapshots both offer. */
public interface EngineReader {
    /** The value, or null when the key is absent. */
    byte[] get(ColumnFamily cf, byte[] key);

    /** A cursor over [lower, upper) of one column family. */
    EngineIterator iterator(ColumnFamily cf, byte[] lower, byte[] upper);
}
