package io.duetdb.store.engine;

/** Changes written together, atomically. Not thread-safe; close it. */
public interface EngineWriteBatch extends AutoCloseable {
    void put(ColumnFamily cf, byte[] key, byte[] value);

    void delete(ColumnFamily cf, byte[] key);

    /** Deletes [start, end). */
    void deleteRange(ColumnFamily cf, byte[] start, byte[] end);

    int count();

    long dataSize();

    @Override
    void close();
}
