package io.duetdb.bulk.export;

import java.io.IOException;

/** Writes one export file: rows of column values as the coprocessor's vectors hold them. */
interface RowFileWriter extends AutoCloseable {
    void write(Object[] values) throws IOException;

    /** Bytes written so far (an estimate while a columnar file buffers its row group). */
    long bytes();

    @Override
    void close() throws IOException;
}
