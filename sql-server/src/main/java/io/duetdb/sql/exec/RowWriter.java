package io.duetdb.sql.exec;

import java.util.List;
import java.util.Optional;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.Handle;

/**
 * Writes rows and their index entries in a transaction, checking the primary and unique keys. Key checks read
 * with locks (pessimistic mode) so that two transactions cannot both see a key free and both take it.
 */
public final class RowWriter {
    private final Transaction transaction;
    private final TableAccess access;
    /** Null when no foreign key concerns the table (or foreign_key_checks is off). */
    private final ForeignKeyEnforcer foreignKeys;
    /** Key checks read ahead by {@link #prefetchKeyChecks}, each used once; null values are absent keys. */
    private final java.util.Map<com.google.protobuf.ByteString, Optional<byte[]>> prefetched = new java.util.HashMap<>();

    public RowWriter(Transaction transaction, TableAccess access) {
        this(transaction, access, null);
    }

    /** A writer that enforces the foreign keys of the table and those referencing it ({@code foreignKeys} may be null). */
    public RowWriter(Transaction transaction, TableAccess access, ForeignKeyEnforcer foreignKeys) {
        this.transaction = transaction;
        this.access = access;
        this.foreignKeys = foreignKeys != null && foreignKeys.concerns(access.table()) ? foreignKeys : null;
    }

    /**
     * Reads (and locks) the primary and unique keys of rows about to be inserted in one round trip per region,
     * so that {@link #findConflict} does not read them one by one. Only for plain inserts: a key that the
     * statement writes before its check is read again.
     */
    public void prefetchKeyChecks(List<Object[]> rows, List<Handle> handles) {
        List<byte[]> keys = new java.util.ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            keys.addAll(checkedKeys(rows.get(i), handles.get(i)));
        }
        if (keys.isEmpty()) {
            return;
        }
        java.util.Map<com.google.protobuf.ByteString, byte[]> found = transaction.getForUpdateAll(keys);
        for (byte[] key : keys) {
            com.google.protobuf.ByteString wrapped = com.google.protobuf.ByteString.copyFrom(key);
            prefetched.put(wrapped, Optional.ofNullable(found.get(wrapped)));
        }
    }

    private List<byte[]> checkedKeys(Object[] row, Handle handle) {
        List<byte[]> keys = new java.util.ArrayList<>();
        if (access.table().hasClusteredPrimaryKey()) {
            keys.add(access.rowKey(handle));
        }
        for (IndexInfo index : access.writableIndexes()) {
            if (access.isUniqueEntry(index, row)) {
                keys.add(access.indexKey(index, row, handle));
            }
        }
        return keys;
    }

    private Optional<byte[]> readForUpdate(byte[] key) {
        Optional<byte[]> ahead = prefetched.remove(com.google.protobuf.ByteString.copyFrom(key));
        return ahead != null ? ahead : transaction.getForUpdate(key);
    }

    /** The handle of the row that already holds one of {@code row}'s unique keys, if any. */
    public Optional<Conflict> findConflict(Object[] row, Handle handle) {
        TableInfo table = access.table();
        if (table.hasClusteredPrimaryKey()) {
            if (readForUpdate(access.rowKey(handle)).isPresent()) {
                return Optional.of(new Conflict(handle, IndexInfo.PRIMARY_NAME, describePrimaryKey(row)));
            }
        }
        for (IndexInfo index : access.writableIndexes()) {
            if (!access.isUniqueEntry(index, row)) {
                continue;
            }
            Optional<byte[]> existing = readForUpdate(access.indexKey(index, row, handle));
            if (existing.isPresent() && !access.handleOfValue(existing.get()).equals(handle)) {
                return Optional.of(new Conflict(access.handleOfValue(existing.get()), index.name(),
                        describe(access.indexDisplayValues(index, row))));
            }
        }
        return Optional.empty();
    }

    /**
     * The handle of another row that already holds one of the keys that changing row {@code oldHandle} from
     * {@code oldRow} to {@code newRow} (at {@code newHandle}) takes, if any. Only the keys the change takes anew are
     * read: the primary key when the handle changes, and each unique key whose values change; a key the row keeps is
     * its own, and reading it would also stop the check there, before the keys that do change.
     */
    public Optional<Conflict> findUpdateConflict(Handle oldHandle, Object[] oldRow, Handle newHandle, Object[] newRow) {
        TableInfo table = access.table();
        if (table.hasClusteredPrimaryKey() && !newHandle.equals(oldHandle)
                && readForUpdate(access.rowKey(newHandle)).isPresent()) {
            return Optional.of(new Conflict(newHandle, IndexInfo.PRIMARY_NAME, describePrimaryKey(newRow)));
        }
        for (IndexInfo index : access.writableIndexes()) {
            if (!access.isUniqueEntry(index, newRow)
                    || TableAccess.sameValues(access.indexValues(index, oldRow), access.indexValues(index, newRow))) {
                continue;
            }
            Optional<byte[]> existing = readForUpdate(access.indexKey(index, newRow, newHandle));
            if (existing.isEmpty()) {
                continue;
            }
            Handle holder = access.handleOfValue(existing.get());
            if (!holder.equals(newHandle) && !holder.equals(oldHandle)) {
                return Optional.of(new Conflict(holder, index.name(), describe(access.indexDisplayValues(index, newRow))));
            }
        }
        return Optional.empty();
    }

    /** A key conflict: the other row's handle, the key's name and the duplicated value as MySQL prints it. */
    public record Conflict(Handle handle, String keyName, String value) {
        public DuetException toError(String tableName) {
            return new DuetException(ErrorCode.DUPLICATE_ENTRY, "Duplicate entry '" + value + "' for key '"
                    + tableName + "." + keyName + "'");
        }
    }

    /** A clustered primary key's value as MySQL prints it in a duplicate-key error. */
    private String describePrimaryKey(Object[] row) {
        return access.commonHandleKey() != null ? describe(access.indexDisplayValues(access.commonHandleKey(), row))
                : String.valueOf(row[access.handleColumnIndex()]);
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

    /**
     * Writes a new row after {@link #findConflict} found its keys free. Only keys another transaction could also
     * write are locked (pessimistic mode): the clustered row key and unique index entries, which the check already
     * locked, so this usually sends nothing. A hidden row id is this server's alone, so its row key cannot conflict,
     * and a non-unique entry ends with the handle, whose row key decides (TiDB leaves both unlocked too).
     */
    public void insert(Handle handle, Object[] row) {
        insertRow(handle, row);
        if (foreignKeys != null) {
            foreignKeys.checkParents(access.table(), row);
        }
    }

    private void insertRow(Handle handle, Object[] row) {
        List<byte[]> keys = new java.util.ArrayList<>();
        if (access.table().hasClusteredPrimaryKey()) {
            keys.add(access.rowKey(handle));
        }
        for (IndexInfo index : access.writableIndexes()) {
            if (access.isUniqueEntry(index, row)) {
                keys.add(access.indexKey(index, row, handle));
            }
        }
        forget(keys);
        transaction.lockKeys(keys);
        transaction.put(access.rowKey(handle), access.encode(row));
        for (IndexInfo index : access.writableIndexes()) {
            putIndexEntry(index, row, handle);
        }
    }

    /**
     * Inserts a row whose primary and unique keys the prewrite checks (Transaction.insert, an optimistic autocommit
     * INSERT) rather than a read now; answers the conflict instead when the statement already wrote one of those
     * keys (two rows with one key), which the transaction's own writes answer without a read.
     */
    public Optional<Conflict> insertCheckedAtPrewrite(Handle handle, Object[] row) {
        for (byte[] key : checkedKeys(row, handle)) {
            if (transaction.putsValue(key)) {
                return findConflict(row, handle);
            }
        }
        byte[] rowKey = access.rowKey(handle);
        if (access.table().hasClusteredPrimaryKey()) {
            transaction.insert(rowKey, access.encode(row));
        } else {
            transaction.put(rowKey, access.encode(row));
        }
        for (IndexInfo index : access.writableIndexes()) {
            byte[] key = access.indexKey(index, row, handle);
            if (access.isUniqueEntry(index, row)) {
                transaction.insert(key, TableAccess.handleValue(handle));
            } else {
                transaction.put(key, TableAccess.nonUniqueEntryValue());
            }
        }
        if (foreignKeys != null) {
            foreignKeys.checkParents(access.table(), row);
        }
        return Optional.empty();
    }

    public void delete(Handle handle, Object[] row) {
        deleteRow(handle, row);
        if (foreignKeys != null) {
            foreignKeys.afterDelete(access.table(), handle, row);
        }
    }

    private void deleteRow(Handle handle, Object[] row) {
        List<byte[]> keys = new java.util.ArrayList<>();
        keys.add(access.rowKey(handle));
        for (IndexInfo index : access.deletableIndexes()) {
            keys.add(access.indexKey(index, row, handle));
        }
        forget(keys);
        transaction.lockKeys(keys);
        transaction.delete(access.rowKey(handle));
        for (IndexInfo index : access.deletableIndexes()) {
            transaction.delete(access.indexKey(index, row, handle));
        }
    }

    public void update(Handle oldHandle, Object[] oldRow, Handle newHandle, Object[] newRow) {
        updateRow(oldHandle, oldRow, newHandle, newRow);
        if (foreignKeys != null) {
            foreignKeys.afterUpdate(access.table(), oldHandle, oldRow, newRow);
            foreignKeys.checkChangedParents(access.table(), oldRow, newRow);
        }
    }

    /** Updates a row after checking that its new primary and unique keys are free (a cascaded update's checks). */
    void updateChecked(Handle handle, Object[] oldRow, Object[] newRow) {
        Handle newHandle = access.table().hasClusteredPrimaryKey() ? access.handleOf(newRow) : handle;
        Optional<Conflict> conflict = findUpdateConflict(handle, oldRow, newHandle, newRow);
        if (conflict.isPresent()) {
            throw conflict.get().toError(access.table().name());
        }
        update(handle, oldRow, newHandle, newRow);
    }

    private void updateRow(Handle oldHandle, Object[] oldRow, Handle newHandle, Object[] newRow) {
        if (!oldHandle.equals(newHandle)) {
            deleteRow(oldHandle, oldRow);
            insertRow(newHandle, newRow);
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
        forget(keys);
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

    /** Read-ahead key checks of keys this statement writes are stale. */
    private void forget(List<byte[]> keys) {
        if (!prefetched.isEmpty()) {
            keys.forEach(key -> prefetched.remove(com.google.protobuf.ByteString.copyFrom(key)));
        }
    }

    private void putIndexEntry(IndexInfo index, Object[] row, Handle handle) {
        byte[] key = access.indexKey(index, row, handle);
        if (access.isUniqueEntry(index, row)) {
            transaction.put(key, TableAccess.handleValue(handle));
        } else {
            transaction.put(key, TableAccess.nonUniqueEntryValue());
        }
    }
}
