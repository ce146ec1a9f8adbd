package io.duetdb.compute.scan;

/**
 * The rows a table scan decodes, in key order: each a row value of the row codec. A row store walks its MVCC
 * versions; a column learner its replicated versions.
 */
public interface RowSource extends AutoCloseable {
    /** Moves to the next row; false at the end. */
    boolean advance();

    /** The current row's value (row codec bytes). */
    byte[] value();

    @Override
    void close();
}
