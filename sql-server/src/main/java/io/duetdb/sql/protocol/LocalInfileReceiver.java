package io.duetdb.sql.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * The packets of one file a client sends for LOAD DATA LOCAL, handed from the event loop to the statement's
 * thread: each packet's payload in order, then an empty packet at the end. The event loop stops reading the
 * connection while {@link #HIGH_WATER} packets wait, and {@code resume} starts it again once the reader has taken
 * them down to {@link #LOW_WATER}.
 */
final class LocalInfileReceiver extends InputStream {
    static final int HIGH_WATER = 32;
    static final int LOW_WATER = 8;
    private static final byte[] END = new byte[0];
    private static final long IDLE_TIMEOUT_SECONDS = 300;

    private final LinkedBlockingQueue<byte[]> packets = new LinkedBlockingQueue<>();
    private final Runnable resume;
    private byte[] current = new byte[0];
    private int position;
    private boolean ended;

    LocalInfileReceiver(Runnable resume) {
        this.resume = resume;
    }

    /** A packet's payload (event loop); answers whether reading should pause. Empty: the file is complete. */
    boolean offer(byte[] payload) {
        packets.add(payload.length == 0 ? END : payload);
        return packets.size() >= HIGH_WATER;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (position >= current.length) {
            if (ended) {
                return -1;
            }
            byte[] next;
            try {
                next = packets.poll(IDLE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
            }
            if (next == null) {
                throw new IOException("the client sent no file data for " + IDLE_TIMEOUT_SECONDS + " s");
            }
            if (packets.size() <= LOW_WATER) {
                resume.run();
            }
            if (next == END) {
                ended = true;
                return -1;
            }
            current = next;
            position = 0;
        }
        int n = Math.min(length, current.length - position);
        System.arraycopy(current, position, buffer, offset, n);
        position += n;
        return n;
    }

    /** Reads to the end of the file, so the client's remaining packets are consumed before the reply. */
    @Override
    public void close() throws IOException {
        byte[] skip = new byte[8192];
        while (read(skip, 0, skip.length) >= 0) {
            // Dropped: the statement stopped before the end of the file.
        }
    }
}
