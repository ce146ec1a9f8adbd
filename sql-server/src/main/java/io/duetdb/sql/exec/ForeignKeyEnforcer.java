package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.CreateTableText;
import io.duetdb.common.catalog.ForeignKey;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.Handle;
import io.duetdb.sql.catalog.ForeignKeyReference;
import io.duetdb.sql.catalog.InfoSchema;

/**
 * Foreign keys enforced row by row as InnoDB does (and TiDB 6.6+): a child row written must find its parent row
 * (1452), and a parent row deleted or given new key values acts on the rows that reference it by the key's ON
 * DELETE / ON UPDATE action: RESTRICT and NO ACTION refuse (1451), CASCADE deletes or updates them, SET NULL clears
 * their columns; cascades go at most 15 levels deep (3008). A row whose foreign key columns hold a NULL references
 * nothing. Only built while foreign_key_checks is on.
 */
public final class ForeignKeyEnforcer {
    static final int MAX_CASCADE_DEPTH = 15;

    private final Transaction transaction;
    private final InfoSchema schema;
    private final int depth;

    private ForeignKeyEnforcer(Transaction transaction, InfoSchema schema, int depth) {
        this.transaction = requireNonNull(transaction, "transaction is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.depth = depth;
    }

    /** The enforcer of a statement's writes; null when there is nothing to enforce (checks off, or no foreign keys). */
    public static ForeignKeyEnforcer of(Transaction transaction, InfoSchema schema,
            BooleanSupplier foreignKeyChecks) {
        if (!schema.hasForeignKeys() || !foreignKeyChecks.getAsBoolean()) {
            return null;
        }
        return new ForeignKeyEnforcer(transaction, schema, 0);
    }

    /**
     * ALTER TABLE ADD FOREIGN KEY: every row of {@code table} whose key columns hold no NULL must find the row it
     * references (1452), read at {@code transaction}'s snapshot.
     */
    public static void checkExistingRows(Transaction transaction, InfoSchema schema, TableInfo table,
            ForeignKey foreignKey) {
        ForeignKeyEnforcer enforcer = new ForeignKeyEnforcer(transaction, schema, 0);
        KeyLookup.of(table, List.of()).forEachRow(transaction, row -> enforcer.checkParent(table, foreignKey, row));
    }

    /** Whether writes to {@code table} have anything to enforce. */
    boolean concerns(TableInfo table) {
        return !table.foreignKeys().isEmpty() || !schema.referencing(table.id()).isEmpty();
    }

    /** After {@code row} was written to {@code table}: each of its foreign keys must find the row it references. */
    void checkParents(TableInfo table, Object[] row) {
        for (ForeignKey foreignKey : table.foreignKeys()) {
            checkParent(table, foreignKey, row);
        }
    }

    /** After an update of {@code table}: the foreign keys whose values changed must find the rows they reference. */
    void checkChangedParents(TableInfo table, Object[] oldRow, Object[] newRow) {
        for (ForeignKey foreignKey : table.foreignKeys()) {
            KeyLookup own = KeyLookup.of(table, foreignKey.columns());
            if (!own.sameKeys(oldRow, own.valuesOf(newRow))) {
                checkParent(table, foreignKey, newRow);
            }
        }
    }

    /** After {@code row} (at {@code handle}) was deleted from {@code table}: ON DELETE of the keys referencing it. */
    void afterDelete(TableInfo table, Handle handle, Object[] row) {
        for (ForeignKeyReference reference : schema.referencing(table.id())) {
            KeyLookup parentKey = KeyLookup.of(table, reference.foreignKey().referencedColumns());
            List<Object> values = parentKey.valuesOf(row);
            if (!values.contains(null)) {
                act(reference, table, handle, values, null, reference.foreignKey().onDelete());
            }
        }
    }

    /** After a row of {@code table} changed from {@code oldRow} to {@code newRow}: ON UPDATE of the keys referencing it. */
    void afterUpdate(TableInfo table, Handle handle, Object[] oldRow, Object[] newRow) {
        for (ForeignKeyReference reference : schema.referencing(table.id())) {
            KeyLookup parentKey = KeyLookup.of(table, reference.foreignKey().referencedColumns());
            List<Object> oldValues = parentKey.valuesOf(oldRow);
            List<Object> newValues = parentKey.valuesOf(newRow);
            if (!oldValues.contains(null) && !parentKey.sameKeys(oldRow, newValues)) {
                act(reference, table, handle, oldValues, newValues, reference.foreignKey().onUpdate());
            }
        }
    }

    private void checkParent(TableInfo table, ForeignKey foreignKey, Object[] row) {
        List<Object> values = KeyLookup.of(table, foreignKey.columns()).valuesOf(row);
        if (values.contains(null)) {
            return;
        }
        Optional<TableInfo> parent = schema.table(foreignKey.referencedDatabase(), foreignKey.referencedTable());
        Optional<KeyLookup> lookup = parent.flatMap(found -> KeyLookup.byKey(found, foreignKey.referencedColumns()));
        if (lookup.isEmpty() || !lookup.get().exists(transaction, values)) {
            throw new DuetException(ErrorCode.NO_REFERENCED_ROW, "Cannot add or update a child row: a foreign key"
                    + " constraint fails (" + describe(table, foreignKey) + ")");
        }
    }

    /**
     * The action on the rows of the reference's table that hold {@code oldValues} (the parent row's key, which a
     * delete removes and an update changes to {@code newValues}).
     */
    private void act(ForeignKeyReference reference, TableInfo parent, Handle parentHandle, List<Object> oldValues,
            List<Object> newValues, String action) {
        TableInfo child = reference.table();
        ForeignKey foreignKey = reference.foreignKey();
        KeyLookup childKey = KeyLookup.of(child, foreignKey.columns());
        List<TableReader.HandleRow> children = childKey.rowsForUpdate(transaction, oldValues);
        if (child.id() == parent.id()) {
            // A row that references itself does not hold itself back.
            children = children.stream().filter(found -> !found.handle().equals(parentHandle)).toList();
        }
        if (children.isEmpty()) {
            return;
        }
        switch (action) {
            case "CASCADE" -> {
                ForeignKeyEnforcer deeper = deeper();
                RowWriter writer = new RowWriter(transaction, childKey.access(), deeper);
                for (TableReader.HandleRow found : children) {
                    if (newValues == null) {
                        writer.delete(found.handle(), found.row());
                    } else {
                        writer.updateChecked(found.handle(), found.row(), assign(childKey, found.row(), newValues));
                    }
                }
            }
            case "SET NULL" -> {
                ForeignKeyEnforcer deeper = deeper();
                RowWriter writer = new RowWriter(transaction, childKey.access(), deeper);
                for (TableReader.HandleRow found : children) {
                    Object[] cleared = found.row().clone();
                    for (int position : childKey.positions()) {
                        ColumnInfo column = child.columns().get(position);
                        if (column.notNull()) {
                            throw new DuetException(ErrorCode.COLUMN_CANNOT_BE_NULL, "Column '" + column.name()
                                    + "' cannot be null");
                        }
                        cleared[position] = null;
                    }
                    writer.updateChecked(found.handle(), found.row(), cleared);
                }
            }
            default -> throw new DuetException(ErrorCode.ROW_IS_REFERENCED, "Cannot delete or update a parent row:"
                    + " a foreign key constraint fails (" + describe(child, foreignKey) + ")");
        }
    }

    private Object[] assign(KeyLookup childKey, Object[] row, List<Object> values) {
        Object[] updated = row.clone();
        for (int i = 0; i < values.size(); i++) {
            int position = childKey.positions().get(i);
            updated[position] = TableAccess.toStorage(childKey.access().table().columns().get(position), values.get(i));
        }
        return updated;
    }

    private ForeignKeyEnforcer deeper() {
        if (depth + 1 > MAX_CASCADE_DEPTH) {
            throw new DuetException(ErrorCode.FOREIGN_KEY_DEPTH_EXCEEDED, "Foreign key cascade delete/update exceeds"
                    + " max depth of " + MAX_CASCADE_DEPTH + ".");
        }
        return new ForeignKeyEnforcer(transaction, schema, depth + 1);
    }

    /** MySQL's words for a constraint in its errors: {@code `db`.`child`, CONSTRAINT `fk` FOREIGN KEY ...}. */
    private String describe(TableInfo child, ForeignKey foreignKey) {
        String database = schema.database(child.databaseId()).map(found -> found.name()).orElse("");
        return "`" + database + "`.`" + child.name() + "`, " + CreateTableText.foreignKeyClause(foreignKey, database);
    }
}
