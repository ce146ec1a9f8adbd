package io.duetdb.store.engine;

/** A consistent point-in-time view of every column family. Close it. */
public interface EngineSnapshot extends AutoCloseable {
    /** The value, or null when the key is absent. */
    byte[] get(ColumnFamily cf, byte[] key);

    EngineIterator iterator(ColumnFamily cf, byte[] lower, byte[] upper);

    @Override
    void close();
}
