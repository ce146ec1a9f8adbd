package io.duetdb.store.engine;

/** A cursor over one column family, bounded by [lower, upper). Not thread-safe; close it. */
public interface EngineIterator extends AutoCloseable {
    void seek(byte[] key);

    /** Positions at the last key at or before {@code key}. */
    void seekForPrev(byte[] key);

    void seekToFirst();

    void seekToLast();

    boolean valid();

    byte[] key();

    byte[] value();

    void next();

    void prev();

    @Override
    void close();
}
