package io.duetdb.bulk.source;

import java.io.IOException;
import java.io.InputStream;

import org.apache.hadoop.fs.FSDataInputStream;

/**
 * The lines of a file that start in [start, end): a line that began before {@code start} belongs to the part
 * before, and the line running over {@code end} is read to its end. Parts cut this way read every line once.
 */
final class LineRangeInputStream extends InputStream {
    private final FSDataInputStream in;
    private final long end;
    private long position;
    private boolean done;
    private int last = '\n';

    LineRangeInputStream(FSDataInputStream in, long start, long end) throws IOException {
        this.in = in;
        this.end = end;
        if (start > 0) {
            // Skip the rest of the line the previous part reads: from the byte before start up to its line break.
            in.seek(start - 1);
            position = start - 1;
            int b;
            do {
                b = in.read();
                position++;
            } while (b >= 0 && b != '\n');
            if (b < 0) {
                done = true;
            }
        } else {
            in.seek(0);
        }
    }

    @Override
    public int read() throws IOException {
        if (done || (position >= end && last == '\n')) {
            done = true;
            return -1;
        }
        int b = in.read();
        if (b < 0) {
            done = true;
            return -1;
        }
        position++;
        last = b;
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (done || (position >= end && last == '\n')) {
            done = true;
            return -1;
        }
        if (position < end) {
            int n = in.read(buffer, offset, (int) Math.min(length, end - position));
            if (n < 0) {
                done = true;
                return -1;
            }
            position += n;
            last = buffer[offset + n - 1];
            return n;
        }
        // Past the range: finish the line byte by byte.
        int count = 0;
        while (count < length && !(last == '\n')) {
            int b = in.read();
            if (b < 0) {
                done = true;
                break;
            }
            position++;
            last = b;
            buffer[offset + count++] = (byte) b;
        }
        return count == 0 ? -1 : count;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
