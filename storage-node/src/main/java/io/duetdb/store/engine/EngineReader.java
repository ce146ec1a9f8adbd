package io.duetdb.store.engine;

import io.duetdb.common.keys.Keys;

/** Point reads and cursors: what the live engine and its snapshots both offer. */
public interface EngineReader {
    /** The value, or null when the key is absent. */
    byte[] get(ColumnFamily cf, byte[] key);

    /** A cursor over [lower, upper) of one column family. */
    EngineIterator iterator(ColumnFamily cf, byte[] lower, byte[] upper);

    /**
     * A cursor for reading one key's versions per seek, to targets of at least
     * {@link Keys#VERSION_FILTER_PREFIX_BYTES} bytes (what it shows after a seek to a shorter one is undefined):
     * after a seek it shows, in order, the keys that share the target's first that many bytes, and ends after them.
     * It may skip files whose filters hold no key with that prefix, which a bounded {@link #iterator} cannot.
     */
    default EngineIterator versionIterator(ColumnFamily cf) {
        return iterator(cf, null, null);
    }
}
