package io.duetdb.store.engine;

/** A consistent point-in-time view of every column family. Close it. */
public interface EngineSnapshot extends EngineReader, AutoCloseable {
    @Override
    byte[] get(ColumnFamily cf, byte[] key);

    @Override
    EngineIterator iterator(ColumnFamily cf, byte[] lower, byte[] upper);

    @Override
    void close();
}
