package io.duetdb.common.keys;

import java.util.HexFormat;
import java.util.List;

import io.duetdb.common.codec.CodecException;
import io.duetdb.common.codec.KeyReader;
import io.duetdb.common.codec.KeyWriter;
import io.duetdb.common.types.ColumnType;

/**
 * Every key prefix of the key space, and nothing else may build them. The layout is TiDB's:
 * <pre>
 *   m{name}                                   metadata: a single value (schema version, id counters)
 *   m{hash}h{field}                           metadata: a field of a named hash (databases, tables, users)
 *   t{tableId}_r{handle}                      a table's rows, by handle
 *   t{tableId}_i{indexId}{values}             a unique index entry (value: the handle)
 *   t{tableId}_i{indexId}{values}{handle}     a non-unique index entry
 * </pre>
 * where ids and integer handles are memcomparable signed 64-bit integers, and index values and common handles
 * (a clustered primary key of other columns, see {@link Handle}) are flagged datums, so that byte order is the
 * order of (table, handle) and of (table, index, values). In a non-unique entry an integer handle is written as
 * a flagged datum too.
 * <p>
 * Inside a storage node's engine, user keys live group-encoded under {@link #DATA_PREFIX}
 * ({@code z{encoded userKey}}) in the data column families, MVCC versions with an inverted timestamp after
 * the key ({@code z{encoded userKey}{^ts}}: a key's newest version first), and the node's own records under
 * {@link #LOCAL_PREFIX} in the raft column family:
 * <pre>
 *   0x01 0x01                   the store's identity (cluster id, store id)
 *   0x01 0x02 {regionId}        a region replica's local state (region, peer state)
 *   0x01 0x03 {regionId}        a region replica's applied and snapshot positions
 * </pre>
 */
public final class Keys {
    public static final byte META_PREFIX = 'm';
    public static final byte TABLE_PREFIX = 't';
    private static final byte META_HASH_SEPARATOR = 'h';
    private static final byte[] RECORD_SEPARATOR = {'_', 'r'};
    private static final byte[] INDEX_SEPARATOR = {'_', 'i'};
    /** Length of t{tableId}. */
    private static final int TABLE_PREFIX_LENGTH = 1 + 8;
    /** Length of t{tableId}_r. */
    private static final int RECORD_PREFIX_LENGTH = TABLE_PREFIX_LENGTH + 2;

    /** Engine keys of user data: {@code z{userKey}}. */
    public static final byte DATA_PREFIX = 'z';
    /** Engine keys of the store's own records. */
    public static final byte LOCAL_PREFIX = 0x01;
    /**
     * The key prefix the write column family filters versions by: 28 bytes, a row's data key with an integer handle
     * ({@code z} and three groups holding {@code t{tableId}_r{handle}}). A version key is 1 + 9k + 8 bytes long, so
     * one of at least 28 bytes is at least 36, and its first 28 bytes lie in its data key: every version of a key has
     * the same prefix. Shorter version keys have none and are never filtered.
     */
    public static final int VERSION_FILTER_PREFIX_BYTES = 28;
    private static final byte STORE_IDENT = 0x01;
    private static final byte REGION_STATE = 0x02;
    private static final byte APPLY_STATE = 0x03;

    private Keys() {
    }

    /** The engine key of a user key: {@code z} and the key's group encoding, so that keys never prefix each other. */
    public static byte[] dataKey(byte[] userKey) {
        return new KeyWriter(userKey.length + userKey.length / 8 + 10).writeByte(DATA_PREFIX).writeBytes(userKey)
                .toByteArray();
    }

    /** The engine key bounding a range's end; an empty user end key means the end of all data. */
    public static byte[] dataEndKey(byte[] userEndKey) {
        return userEndKey.length == 0 ? new byte[] {DATA_PREFIX + 1} : dataKey(userEndKey);
    }

    /** The user key of an engine data key, with or without a timestamp suffix. */
    public static byte[] userKeyOf(byte[] dataKey) {
        if (dataKey.length == 0 || dataKey[0] != DATA_PREFIX) {
            throw new CodecException("not a data key: " + describe(dataKey));
        }
        return new KeyReader(dataKey, 1).readBytes();
    }

    /**
     * An MVCC version of a user key: {@code z{encoded key}{^timestamp}}. The timestamp is inverted so that
     * a key's newest version comes first.
     */
    public static byte[] versionKey(byte[] userKey, long timestamp) {
        return new KeyWriter(userKey.length + userKey.length / 8 + 18).writeByte(DATA_PREFIX).writeBytes(userKey)
                .writeUint64(~timestamp).toByteArray();
    }

    /** Appends an inverted timestamp to an engine data key. */
    public static byte[] versionKeyOf(byte[] dataKey, long timestamp) {
        byte[] key = java.util.Arrays.copyOf(dataKey, dataKey.length + 8);
        long inverted = ~timestamp;
        for (int i = 0; i < 8; i++) {
            key[dataKey.length + i] = (byte) (inverted >>> (56 - 8 * i));
        }
        return key;
    }

    /** The timestamp of an MVCC version key. */
    public static long timestampOf(byte[] versionKey) {
        if (versionKey.length < 1 + 9 + 8 || versionKey[0] != DATA_PREFIX) {
            throw new CodecException("not a version key: " + describe(versionKey));
        }
        return ~new KeyReader(versionKey, versionKey.length - 8).readUint64();
    }

    /** The engine data key (without timestamp) of an MVCC version key. */
    public static byte[] dataKeyOfVersion(byte[] versionKey) {
        if (versionKey.length < 1 + 9 + 8 || versionKey[0] != DATA_PREFIX) {
            throw new CodecException("not a version key: " + describe(versionKey));
        }
        return java.util.Arrays.copyOf(versionKey, versionKey.length - 8);
    }

    public static byte[] storeIdentKey() {
        return new byte[] {LOCAL_PREFIX, STORE_IDENT};
    }

    public static byte[] regionStateKey(long regionId) {
        return new KeyWriter(10).writeByte(LOCAL_PREFIX).writeByte(REGION_STATE).writeUint64(regionId).toByteArray();
    }

    public static byte[] regionStatePrefix() {
        return new byte[] {LOCAL_PREFIX, REGION_STATE};
    }

    public static byte[] regionStateEnd() {
        return new byte[] {LOCAL_PREFIX, REGION_STATE + 1};
    }

    public static long regionIdOfStateKey(byte[] key) {
        if (key.length != 10 || key[0] != LOCAL_PREFIX || key[1] != REGION_STATE) {
            throw new CodecException("not a region state key: " + describe(key));
        }
        return new KeyReader(key, 2).readUint64();
    }

    public static byte[] applyStateKey(long regionId) {
        return new KeyWriter(10).writeByte(LOCAL_PREFIX).writeByte(APPLY_STATE).writeUint64(regionId).toByteArray();
    }

    /** {@code m{name}}: a metadata key; the name is group-encoded so that names never prefix each other. */
    public static byte[] metaKey(byte[] name) {
        return new KeyWriter(name.length + 12).writeByte(META_PREFIX).writeBytes(name).toByteArray();
    }

    /**
     * {@code m{hash}h{field}}: one field of a metadata hash (TiDB's structure layout), so that all fields of
     * a hash are one contiguous range.
     */
    public static byte[] metaHashFieldKey(byte[] hash, byte[] field) {
        return new KeyWriter(hash.length + field.length + 24).writeByte(META_PREFIX).writeBytes(hash)
                .writeByte(META_HASH_SEPARATOR).writeBytes(field).toByteArray();
    }

    /** The start of a metadata hash's fields. */
    public static byte[] metaHashPrefix(byte[] hash) {
        return new KeyWriter(hash.length + 12).writeByte(META_PREFIX).writeBytes(hash).writeByte(META_HASH_SEPARATOR)
                .toByteArray();
    }

    /** The first key after a metadata hash's fields. */
    public static byte[] metaHashEnd(byte[] hash) {
        return new KeyWriter(hash.length + 12).writeByte(META_PREFIX).writeBytes(hash)
                .writeByte(META_HASH_SEPARATOR + 1).toByteArray();
    }

    /** The field of a metadata hash key. */
    public static byte[] metaHashFieldOf(byte[] key, byte[] hash) {
        byte[] prefix = metaHashPrefix(hash);
        if (key.length < prefix.length || !java.util.Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length)) {
            throw new CodecException("not a field of that metadata hash: " + describe(key));
        }
        return new KeyReader(key, prefix.length).readBytes();
    }

    /** The first key after every metadata key. */
    public static byte[] metaEnd() {
        return new byte[] {META_PREFIX + 1};
    }

    /** {@code t{tableId}}: the start of everything a table owns. */
    public static byte[] tablePrefix(long tableId) {
        return new KeyWriter(TABLE_PREFIX_LENGTH).writeByte(TABLE_PREFIX).writeInt64(tableId).toByteArray();
    }

    /** The first key after everything the table owns. */
    public static byte[] tableEnd(long tableId) {
        if (tableId == Long.MAX_VALUE) {
            return new byte[] {TABLE_PREFIX + 1};
        }
        return tablePrefix(tableId + 1);
    }

    /** {@code t{tableId}_r}: the start of a table's rows. */
    public static byte[] recordPrefix(long tableId) {
        return recordWriter(tableId).toByteArray();
    }

    /** The first key after a table's rows. */
    public static byte[] recordEnd(long tableId) {
        return new KeyWriter(RECORD_PREFIX_LENGTH).writeByte(TABLE_PREFIX).writeInt64(tableId)
                .writeByte(RECORD_SEPARATOR[0]).writeByte(RECORD_SEPARATOR[1] + 1).toByteArray();
    }

    /** {@code t{tableId}_r{handle}}. */
    public static byte[] recordKey(long tableId, long handle) {
        return recordWriter(tableId).writeInt64(handle).toByteArray();
    }

    /** {@code t{tableId}_r{handle}}, for an integer or a common handle. */
    public static byte[] recordKey(long tableId, Handle handle) {
        return handle.isInt() ? recordKey(tableId, handle.intValue())
                : recordWriter(tableId).writeRaw(handle.encoded()).toByteArray();
    }

    /**
     * {@code t{tableId}_r{datums}}: the record key of a common handle, or with a prefix of the key's columns the
     * start of the rows that begin with them ({@link #indexValuesEnd} bounds them).
     */
    public static byte[] recordValuesPrefix(long tableId, List<ColumnType> types, List<?> values) {
        return indexValues(recordWriter(tableId), types, values).toByteArray();
    }

    /** The common handle of a clustered primary key's values (storage forms, in key order). */
    public static Handle commonHandle(List<ColumnType> types, List<?> values) {
        return Handle.common(indexValues(new KeyWriter(16 * types.size()), types, values).toByteArray());
    }

    public static boolean isRecordKey(byte[] key) {
        return key.length > RECORD_PREFIX_LENGTH && key[0] == TABLE_PREFIX
                && key[TABLE_PREFIX_LENGTH] == RECORD_SEPARATOR[0] && key[TABLE_PREFIX_LENGTH + 1] == RECORD_SEPARATOR[1];
    }

    public static long tableIdOf(byte[] key) {
        if (key.length < TABLE_PREFIX_LENGTH || key[0] != TABLE_PREFIX) {
            throw new CodecException("not a table key: " + describe(key));
        }
        return new KeyReader(key, 1).readInt64();
    }

    /** The integer handle a record key ends with. */
    public static long handleOf(byte[] recordKey) {
        if (!isRecordKey(recordKey) || recordKey.length != RECORD_PREFIX_LENGTH + 8) {
            throw new CodecException("not a record key with an integer handle: " + describe(recordKey));
        }
        return new KeyReader(recordKey, RECORD_PREFIX_LENGTH).readInt64();
    }

    /** The common handle a record key of a table with a clustered primary key of other columns ends with. */
    public static Handle commonHandleOf(byte[] recordKey) {
        if (!isRecordKey(recordKey)) {
            throw new CodecException("not a record key: " + describe(recordKey));
        }
        return Handle.common(java.util.Arrays.copyOfRange(recordKey, RECORD_PREFIX_LENGTH, recordKey.length));
    }

    /** {@code t{tableId}_i{indexId}}: the start of one index's entries. */
    public static byte[] indexPrefix(long tableId, long indexId) {
        return indexWriter(tableId, indexId).toByteArray();
    }

    /** The first key after one index's entries. */
    public static byte[] indexEnd(long tableId, long indexId) {
        if (indexId == Long.MAX_VALUE) {
            return new KeyWriter().writeByte(TABLE_PREFIX).writeInt64(tableId)
                    .writeByte(INDEX_SEPARATOR[0]).writeByte(INDEX_SEPARATOR[1] + 1).toByteArray();
        }
        return indexPrefix(tableId, indexId + 1);
    }

    /** A unique index entry: {@code t{tableId}_i{indexId}{values}}. */
    public static byte[] uniqueIndexKey(long tableId, long indexId, List<ColumnType> types, List<?> values) {
        return indexValues(indexWriter(tableId, indexId), types, values).toByteArray();
    }

    /** A non-unique index entry: {@code t{tableId}_i{indexId}{values}{handle}}. */
    public static byte[] indexKey(long tableId, long indexId, List<ColumnType> types, List<?> values, long handle) {
        return indexValues(indexWriter(tableId, indexId), types, values)
                .writeDatum(ColumnType.INT64, handle).toByteArray();
    }

    /** A non-unique index entry of an integer or a common handle. */
    public static byte[] indexKey(long tableId, long indexId, List<ColumnType> types, List<?> values, Handle handle) {
        if (handle.isInt()) {
            return indexKey(tableId, indexId, types, values, handle.intValue());
        }
        return indexValues(indexWriter(tableId, indexId), types, values).writeRaw(handle.encoded()).toByteArray();
    }

    /**
     * The start of the index entries whose first values are {@code values} (a prefix of the index's columns);
     * with {@link #indexValuesEnd} it bounds them.
     */
    public static byte[] indexValuesPrefix(long tableId, long indexId, List<ColumnType> types, List<?> values) {
        return indexValues(indexWriter(tableId, indexId), types, values).toByteArray();
    }

    /** The first key after every entry that starts with {@code prefix}. */
    public static byte[] indexValuesEnd(byte[] prefix) {
        byte[] end = java.util.Arrays.copyOf(prefix, prefix.length + 1);
        end[prefix.length] = (byte) 0xFF;
        return end;
    }

    /** The handle a non-unique index entry ends with ({@code ...{values}{handle}}). */
    public static long handleOfIndexEntry(byte[] key) {
        if (key.length < TABLE_PREFIX_LENGTH + 2 + 8 + 9 || key[key.length - 9] != io.duetdb.common.codec.Datum.INT_FLAG) {
            throw new CodecException("not an index entry with a handle: " + describe(key));
        }
        return new KeyReader(key, key.length - 8).readInt64();
    }

    /** The common handle a non-unique index entry ends with, after the index's values of these types. */
    public static Handle commonHandleOfIndexEntry(byte[] key, List<ColumnType> indexTypes) {
        KeyReader reader = new KeyReader(key, TABLE_PREFIX_LENGTH + 2 + 8);
        for (ColumnType type : indexTypes) {
            reader.readDatum(type);
        }
        if (!reader.hasRemaining()) {
            throw new CodecException("not an index entry with a common handle: " + describe(key));
        }
        return Handle.common(reader.readRaw(reader.remaining()));
    }

    /** A readable form for logs and {@code ctl}: t12_r100, t12_i2_..., m..., or hex. */
    public static String describe(byte[] key) {
        if (key.length == 0) {
            return "";
        }
        try {
            if (key[0] == TABLE_PREFIX && key.length >= TABLE_PREFIX_LENGTH) {
                KeyReader reader = new KeyReader(key, 1);
                StringBuilder text = new StringBuilder("t").append(reader.readInt64());
                if (reader.skipIfNext(RECORD_SEPARATOR)) {
                    text.append("_r");
                    if (reader.remaining() == 8) {
                        text.append(reader.readInt64());
                    }
                } else if (reader.skipIfNext(INDEX_SEPARATOR)) {
                    text.append("_i");
                    if (reader.remaining() >= 8) {
                        text.append(reader.readInt64());
                    }
                }
                if (reader.hasRemaining()) {
                    text.append("_0x").append(HexFormat.of().withUpperCase().formatHex(reader.readRaw(reader.remaining())));
                }
                return text.toString();
            }
        } catch (CodecException e) {
            // Not one of ours after all: fall through to hex.
        }
        return "0x" + HexFormat.of().withUpperCase().formatHex(key);
    }

    private static KeyWriter recordWriter(long tableId) {
        return new KeyWriter(RECORD_PREFIX_LENGTH + 8).writeByte(TABLE_PREFIX).writeInt64(tableId)
                .writeRaw(RECORD_SEPARATOR);
    }

    private static KeyWriter indexWriter(long tableId, long indexId) {
        return new KeyWriter(64).writeByte(TABLE_PREFIX).writeInt64(tableId).writeRaw(INDEX_SEPARATOR)
                .writeInt64(indexId);
    }

    private static KeyWriter indexValues(KeyWriter writer, List<ColumnType> types, List<?> values) {
        if (types.size() != values.size()) {
            throw new IllegalArgumentException(types.size() + " index column types for " + values.size() + " values");
        }
        for (int i = 0; i < types.size(); i++) {
            writer.writeDatum(types.get(i), values.get(i));
        }
        return writer;
    }
}
