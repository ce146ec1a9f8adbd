package io.duetdb.store.internal.coprocessor;

import static java.util.Objects.requireNonNull;

import java.util.List;

import io.duetdb.compute.scan.RowSource;
import io.duetdb.store.engine.EngineReader;
import io.duetdb.store.txn.MvccCursor;

/** The entries a snapshot sees in several key ranges, one range after the other, each through an {@link MvccCursor}. */
final class RangesCursor implements RowSource {
    private final EngineReader engine;
    private final List<byte[][]> ranges;
    private final long version;
    private int rangeIndex;
    private MvccCursor cursor;

    RangesCursor(EngineReader engine, List<byte[][]> ranges, long version) {
        this.engine = requireNonNull(engine, "engine is null");
        this.ranges = List.copyOf(ranges);
        this.version = version;
    }

    /** Moves to the next visible entry; false once every range is done. */
    @Override
    public boolean advance() {
        while (true) {
            if (cursor == null) {
                if (rangeIndex >= ranges.size()) {
                    return false;
                }
                byte[][] range = ranges.get(rangeIndex++);
                cursor = new MvccCursor(engine, range[0], range[1], version);
            }
            if (cursor.advance()) {
                return true;
            }
            cursor.close();
            cursor = null;
        }
    }

    byte[] userKey() {
        return cursor.userKey();
    }

    @Override
    public byte[] value() {
        return cursor.value();
    }

    @Override
    public void close() {
        if (cursor != null) {
            cursor.close();
            cursor = null;
        }
    }
}
