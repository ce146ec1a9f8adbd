package io.duetdb.compute;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;

/** A batch as one self-contained Arrow IPC stream (schema, one record batch, end of stream), and back. */
public final class ArrowIpc {
    /** Room for the schema, the messages' metadata and their padding. */
    private static final int STREAM_OVERHEAD_BYTES = 1024;

    private ArrowIpc() {
    }

    public static byte[] write(VectorSchemaRoot batch) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(STREAM_OVERHEAD_BYTES + bufferBytes(batch));
        try (ArrowStreamWriter writer = new ArrowStreamWriter(batch, null, out)) {
            writer.start();
            writer.writeBatch();
            writer.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The bytes of the batch's buffers: with the schema and framing, about what the stream takes. */
    private static int bufferBytes(VectorSchemaRoot batch) {
        long bytes = 0;
        for (org.apache.arrow.vector.FieldVector vector : batch.getFieldVectors()) {
            bytes += vector.getBufferSize();
        }
        return (int) Math.min(bytes, Integer.MAX_VALUE - STREAM_OVERHEAD_BYTES);
    }

    /** Reads every batch of a stream, passing each to {@code consumer} while it is valid. */
    public static void read(byte[] stream, BufferAllocator allocator, java.util.function.Consumer<VectorSchemaRoot> consumer) {
        try (ArrowStreamReader reader = new ArrowStreamReader(new java.io.ByteArrayInputStream(stream), allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            while (reader.loadNextBatch()) {
                consumer.accept(root);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
