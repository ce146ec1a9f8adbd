package io.duetdb.bulk.source;

/**
 * The rows of one source file as text fields in MySQL's text forms (null for NULL), with where each starts (a line
 * for CSV, a row number for Parquet), whatever the file's format.
 */
public interface RowReader extends AutoCloseable {
    /** One row: its fields and its line or row number in the file (1-based). */
    record Row(String[] fields, long line) {
    }

    /** The next row, or null at the end of the file. */
    Row next();

    /** How much of the file has been read, in bytes (an estimate for columnar files). */
    long bytesRead();

    @Override
    void close();
}
