package io.duetdb.store.engine;

import java.nio.file.Path;

/** Writes keys in ascending order into a sorted file that the engine can ingest whole. */
public interface SstFileBuilder extends AutoCloseable {
    void add(byte[] key, byte[] value);

    /** Finishes the file; returns false (and leaves no file) when nothing was added. */
    boolean finish();

    Path path();

    @Override
    void close();
}
