package io.duetdb.bulk.importer;

import static java.util.Objects.requireNonNull;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Sorts more pairs than memory holds: each writer fills its own buffer, sorts it and spills it to a run file when it
 * passes its share of the memory budget; {@link #merge} hands out every pair in key order from the runs and the
 * buffers left in memory. Run files are deleted on close.
 */
final class ExternalSorter implements AutoCloseable {
    private final Path directory;
    private final long bufferBytes;
    private final List<Path> runs = new ArrayList<>();
    private final List<List<KeyValuePair>> memoryRuns = new ArrayList<>();
    private long spilledPairs;

    ExternalSorter(Path directory, long memoryBytes, int writers) {
        this.directory = requireNonNull(directory, "directory is null");
        this.bufferBytes = Math.max(1 << 20, memoryBytes / Math.max(1, writers));
    }

    /** One writer's buffer; not thread-safe, one per thread. */
    final class Buffer {
        private List<KeyValuePair> pairs = new ArrayList<>();
        private long bytes;
        private long added;

        /** Pairs added to this buffer so far, spilled or not. */
        long pairs() {
            return added;
        }

        void add(byte[] key, byte[] value) {
            KeyValuePair pair = new KeyValuePair(key, value);
            pairs.add(pair);
            added++;
            bytes += pair.heapBytes();
            if (bytes >= bufferBytes) {
                spill();
            }
        }

        private void spill() {
            pairs.sort(KeyValuePair.BY_KEY);
            Path run = writeRun(pairs);
            synchronized (ExternalSorter.this) {
                runs.add(run);
                spilledPairs += pairs.size();
            }
            pairs = new ArrayList<>();
            bytes = 0;
        }

        /** Hands what is left in memory to the sorter, sorted. */
        void finish() {
            pairs.sort(KeyValuePair.BY_KEY);
            synchronized (ExternalSorter.this) {
                memoryRuns.add(pairs);
            }
            pairs = new ArrayList<>();
            bytes = 0;
        }
    }

    Buffer newBuffer() {
        return new Buffer();
    }

    synchronized int spilledRuns() {
        return runs.size();
    }

    synchronized long spilledPairs() {
        return spilledPairs;
    }

    /** Every pair of every run in key order; equal keys come one after the other. */
    synchronized Merged merge() {
        List<Cursor> cursors = new ArrayList<>();
        for (Path run : runs) {
            cursors.add(new FileCursor(run));
        }
        for (List<KeyValuePair> run : memoryRuns) {
            cursors.add(new MemoryCursor(run));
        }
        return new Merged(cursors);
    }

    private Path writeRun(List<KeyValuePair> pairs) {
        try {
            Files.createDirectories(directory);
            Path run = Files.createTempFile(directory, "run-", ".pairs");
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(run), 1 << 20))) {
                for (KeyValuePair pair : pairs) {
                    out.writeInt(pair.key().length);
                    out.write(pair.key());
                    out.writeInt(pair.value().length);
                    out.write(pair.value());
                }
            }
            return run;
        } catch (IOException e) {
            throw new UncheckedIOException("could not spill sorted pairs to " + directory, e);
        }
    }

    @Override
    public synchronized void close() {
        for (Path run : runs) {
            try {
                Files.deleteIfExists(run);
            } catch (IOException e) {
                // A leftover run file is garbage in the work directory, not a failure of the import.
            }
        }
        runs.clear();
        memoryRuns.clear();
    }

    /** The merged pairs, in key order. */
    static final class Merged implements AutoCloseable {
        private final PriorityQueue<Cursor> queue = new PriorityQueue<>((a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
        private final List<Cursor> all;

        private Merged(List<Cursor> cursors) {
            this.all = cursors;
            for (Cursor cursor : cursors) {
                if (cursor.advance()) {
                    queue.add(cursor);
                }
            }
        }

        /** The next pair, or null when all are out. */
        KeyValuePair next() {
            Cursor top = queue.poll();
            if (top == null) {
                return null;
            }
            KeyValuePair pair = new KeyValuePair(top.key(), top.value());
            if (top.advance()) {
                queue.add(top);
            }
            return pair;
        }

        @Override
        public void close() {
            for (Cursor cursor : all) {
                cursor.close();
            }
        }
    }

    private interface Cursor extends AutoCloseable {
        boolean advance();

        byte[] key();

        byte[] value();

        @Override
        void close();
    }

    private static final class MemoryCursor implements Cursor {
        private final List<KeyValuePair> pairs;
        private int index = -1;

        MemoryCursor(List<KeyValuePair> pairs) {
            this.pairs = pairs;
        }

        @Override
        public boolean advance() {
            return ++index < pairs.size();
        }

        @Override
        public byte[] key() {
            return pairs.get(index).key();
        }

        @Override
        public byte[] value() {
            return pairs.get(index).value();
        }

        @Override
        public void close() {
        }
    }

    private static final class FileCursor implements Cursor {
        private final Path file;
        private final DataInputStream in;
        private byte[] key;
        private byte[] value;

        FileCursor(Path file) {
            this.file = file;
            try {
                this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 20));
            } catch (IOException e) {
                throw new UncheckedIOException("could not read sorted run " + file, e);
            }
        }

        @Override
        public boolean advance() {
            try {
                int keyLength;
                try {
                    keyLength = in.readInt();
                } catch (EOFException end) {
                    return false;
                }
                key = in.readNBytes(keyLength);
                value = in.readNBytes(in.readInt());
                return true;
            } catch (IOException e) {
                throw new UncheckedIOException("could not read sorted run " + file, e);
            }
        }

        @Override
        public byte[] key() {
            return key;
        }

        @Override
        public byte[] value() {
            return value;
        }

        @Override
        public void close() {
            try {
                in.close();
            } catch (IOException e) {
                // Reading is over; the file is deleted with the sorter.
            }
        }
    }
}
