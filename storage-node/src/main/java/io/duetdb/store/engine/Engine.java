package io.duetdb.store.engine;

import java.nio.file.Path;
import java.util.List;

/**
 * The store's ordered key-value storage: column families, atomic write batches, snapshots, sorted-file
 * ingestion. Knows nothing of regions or Raft; thread-safe.
 */
public interface Engine extends EngineReader, AutoCloseable {
    @Override
    byte[] get(ColumnFamily cf, byte[] key);

    EngineSnapshot snapshot();

    /** A cursor over the live data (sees writes made while it is open only up to when it was created). */
    @Override
    EngineIterator iterator(ColumnFamily cf, byte[] lower, byte[] upper);

    EngineWriteBatch newWriteBatch();

    /** Writes the batch atomically; with {@code sync} it is on disk when this returns. */
    void write(EngineWriteBatch batch, boolean sync);

    /** Makes every write so far durable. */
    void syncWal();

    /** Approximate bytes the data column families hold in [start, end) (engine keys). */
    long approximateSize(byte[] start, byte[] end);

    SstFileBuilder newSstFile(ColumnFamily cf, Path path);

    /** Adds sorted files to a column family; their keys must not be written concurrently. */
    void ingest(ColumnFamily cf, List<Path> files);

    /** Bytes on disk. */
    long diskUsage();

    @Override
    void close();
}
