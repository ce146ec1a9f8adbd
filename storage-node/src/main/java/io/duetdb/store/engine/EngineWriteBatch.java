package io.duetdb.store.engine;

/** Changes written together, atomically. Not thread-safe; close it. */
public interface EngineWriteBatch extends AutoCloseable {
    void put(ColumnFamily cf, byte[] key, byte[] value);

    void delete(ColumnFamily cf, byte[] key);

    /**
     * A put the engine may write as part of a sorted file it ingests before the batch's other changes: for bulk
     * loads of keys nothing else in the batch touches. Keys of one column family should come in ascending order;
     * out of order ones are put as usual.
     */
    default void putSorted(ColumnFamily cf, byte[] key, byte[] value) {
        put(cf, key, value);
    }

    /** Deletes [start, end). */
    void deleteRange(ColumnFamily cf, byte[] start, byte[] end);

    int count();

    long dataSize();

    @Override
    void close();
}
