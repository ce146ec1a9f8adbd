package io.duetdb.client.txn;

/** A coprocessor plan's answers as Arrow IPC streams, one at a time in key order. */
public interface CoprocessorStream extends AutoCloseable {
    /** The next answer, or null when every region has answered. */
    byte[] next();

    /** What the stores reported of the answers handed out so far. */
    CoprocessorSummary summary();

    /** Stops the reads still under way. */
    @Override
    void close();
}
