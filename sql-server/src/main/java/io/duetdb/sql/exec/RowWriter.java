package io.duetdb.sql.exec;

import java.util.List;
import java.util.Optional;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.IndexInfo;
import io.duetdb.sql.catalog.TableInfo;

/**
 * Writes rows and their index entries in a transaction, checking the primary and unique keys. Key checks read
 * with locks (pessimistic mode) so that two transactions cannot both see a key free and both take it.
 */
public final class RowWriter {
    private final Transaction transaction;
    private final TableAccess access;

    public RowWriter(Transaction transaction, TableAccess access) {
        this.transaction = transaction;
        this.access = access;
    }

    /** The handle of the row that already holds one of {@code row}'s unique keys, if any. */
    public Optional<Conflict> findConflict(Object[] row, long handle) {
        TableInfo table = access.table();
        if (table.hasClusteredHandle()) {
            if (transaction.getForUpdate(access.rowKey(handle)).isPresent()) {
                return Optional.of(new Conflict(handle, IndexInfo.PRIMARY_NAME,
                        String.valueOf(row[access.handleColumnIndex()])));
            }
        }
        for (IndexInfo index : access.writableIndexes()) {
            if (!access.isUniqueEntry(index, row)) {
                continue;
            }
            Optional<byte[]> existing = transaction.getForUpdate(access.indexKey(index, row, handle));
            if (existing.isPresent() && TableAccess.handleOfValue(existing.get()) != handle) {
                return Optional.of(new Conflict(TableAccess.handleOfValue(existing.get()), index.name(),
                        describe(access.indexValues(index, row))));
            }
        }
        return Optional.empty();
    }

    /** A key conflict: the other row's handle, the key's name and the duplicated value as MySQL prints it. */
    public record Conflict(long handle, String keyName, String value) {
        public DuetException toError(String tableName) {
            return new DuetException(ErrorCode.DUPLICATE_ENTRY, "Duplicate entry '" + value + "' for key '"
                    + tableName + "." + keyName + "'");
        }
    }

    private static String describe(List<Object> values) {
        StringBuilder text = new StringBuilder();
        for (Object value : values) {
            if (!text.isEmpty()) {
                text.append('-');
            }
            text.append(Values.toText(value));
        }
        return text.toString();
    }

    public void insert(long handle, Object[] row) {
        List<byte[]> keys = new java.util.ArrayList<>();
        keys.add(access.rowKey(handle));
        for (IndexInfo index : access.writableIndexes()) {
            keys.add(access.indexKey(index, row, handle));
        }
        // One pessimistic lock request for every key the row writes (the puts then find them locked).
        transaction.lockKeys(keys);
        transaction.put(access.rowKey(handle), access.encode(row));
        for (IndexInfo index : access.writableIndexes()) {
            putIndexEntry(index, row, handle);
        }
    }

    public void delete(long handle, Object[] row) {
        List<byte[]> keys = new java.util.ArrayList<>();
        keys.add(access.rowKey(handle));
        for (IndexInfo index : access.deletableIndexes()) {
            keys.add(access.indexKey(index, row, handle));
        }
        transaction.lockKeys(keys);
        transaction.delete(access.rowKey(handle));
        for (IndexInfo index : access.deletableIndexes()) {
            transaction.delete(access.indexKey(index, row, handle));
        }
    }

    public void update(long oldHandle, Object[] oldRow, long newHandle, Object[] newRow) {
        if (oldHandle != newHandle) {
            delete(oldHandle, oldRow);
            insert(newHandle, newRow);
            return;
        }
        List<byte[]> keys = new java.util.ArrayList<>();
        keys.add(access.rowKey(newHandle));
        for (IndexInfo index : access.deletableIndexes()) {
            if (!TableAccess.sameValues(access.indexValues(index, oldRow), access.indexValues(index, newRow))
                    || !index.state().isWritable()) {
                keys.add(access.indexKey(index, oldRow, oldHandle));
                if (index.state().isWritable()) {
                    keys.add(access.indexKey(index, newRow, newHandle));
                }
            }
        }
        transaction.lockKeys(keys);
        transaction.put(access.rowKey(newHandle), access.encode(newRow));
        for (IndexInfo index : access.deletableIndexes()) {
            List<Object> before = access.indexValues(index, oldRow);
            List<Object> after = access.indexValues(index, newRow);
            if (TableAccess.sameValues(before, after) && index.state().isWritable()) {
                continue;
            }
            transaction.delete(access.indexKey(index, oldRow, oldHandle));
            if (index.state().isWritable()) {
                putIndexEntry(index, newRow, newHandle);
            }
        }
    }

    private void putIndexEntry(IndexInfo index, Object[] row, long handle) {
        byte[] key = access.indexKey(index, row, handle);
        if (access.isUniqueEntry(index, row)) {
            transaction.put(key, TableAccess.handleValue(handle));
        } else {
            transaction.put(key, new byte[] {'0'});
        }
    }
}
