package io.duetdb.common.catalog;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.duetdb.common.row.RowColumn;
import io.duetdb.common.types.Collation;

/**
 * A table as the catalog stores it. Rows are keyed by their handle: the primary-key column when the key is one
 * integer column (a clustered key, {@code handleColumn}); the primary key's values when the key is clustered over
 * other columns ({@code commonHandle}, TiDB's clustered index on a composite or non-integer key); else a hidden row
 * id from the table's auto-increment allocator, with the primary key kept as a unique index. A view is a table with {@code view}
 * set, its query's columns and no indexes or rows. {@code columnarReplicas} is the number of column learner
 * replicas the table asked for (ALTER TABLE ... SET TIFLASH REPLICA n).
 */
public record TableInfo(long id, long databaseId, String name, List<ColumnInfo> columns, List<IndexInfo> indexes,
        String handleColumn, int nextColumnId, long nextIndexId, String comment, long autoIncrementBase,
        ViewInfo view, int columnarReplicas, boolean commonHandle, List<CheckConstraint> checks, Collation collation,
        List<ForeignKey> foreignKeys) {
    public TableInfo {
        foreignKeys = foreignKeys == null ? List.of() : List.copyOf(foreignKeys);
        if (collation == Collation.DEFAULT) {
            collation = null;
        }
        checks = checks == null ? List.of() : List.copyOf(checks);
        requireNonNull(name, "name is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        indexes = List.copyOf(requireNonNull(indexes, "indexes is null"));
        requireNonNull(comment, "comment is null");
        if (columnarReplicas < 0) {
            throw new IllegalArgumentException("columnarReplicas must not be negative: " + columnarReplicas);
        }
        if (commonHandle && (handleColumn != null || indexes.stream().noneMatch(IndexInfo::primary))) {
            throw new IllegalArgumentException("a common handle needs a primary key and no integer handle column");
        }
    }

    public TableInfo(long id, long databaseId, String name, List<ColumnInfo> columns, List<IndexInfo> indexes,
            String handleColumn, int nextColumnId, long nextIndexId, String comment, long autoIncrementBase,
            ViewInfo view, int columnarReplicas, boolean commonHandle, List<CheckConstraint> checks,
            Collation collation) {
        this(id, databaseId, name, columns, indexes, handleColumn, nextColumnId, nextIndexId, comment,
                autoIncrementBase, view, columnarReplicas, commonHandle, checks, collation, List.of());
    }

    public TableInfo(long id, long databaseId, String name, List<ColumnInfo> columns, List<IndexInfo> indexes,
            String handleColumn, int nextColumnId, long nextIndexId, String comment, long autoIncrementBase,
            ViewInfo view, int columnarReplicas, boolean commonHandle, List<CheckConstraint> checks) {
        this(id, databaseId, name, columns, indexes, handleColumn, nextColumnId, nextIndexId, comment,
                autoIncrementBase, view, columnarReplicas, commonHandle, checks, null);
    }

    public TableInfo(long id, long databaseId, String name, List<ColumnInfo> columns, List<IndexInfo> indexes,
            String handleColumn, int nextColumnId, long nextIndexId, String comment, long autoIncrementBase,
            ViewInfo view, int columnarReplicas, boolean commonHandle) {
        this(id, databaseId, name, columns, indexes, handleColumn, nextColumnId, nextIndexId, comment,
                autoIncrementBase, view, columnarReplicas, commonHandle, List.of());
    }

    public TableInfo(long id, long databaseId, String name, List<ColumnInfo> columns, List<IndexInfo> indexes,
            String handleColumn, int nextColumnId, long nextIndexId, String comment, long autoIncrementBase,
            ViewInfo view, int columnarReplicas) {
        this(id, databaseId, name, columns, indexes, handleColumn, nextColumnId, nextIndexId, comment,
                autoIncrementBase, view, columnarReplicas, false);
    }

    public TableInfo(long id, long databaseId, String name, List<ColumnInfo> columns, List<IndexInfo> indexes,
            String handleColumn, int nextColumnId, long nextIndexId, String comment, long autoIncrementBase,
            ViewInfo view) {
        this(id, databaseId, name, columns, indexes, handleColumn, nextColumnId, nextIndexId, comment,
                autoIncrementBase, view, 0);
    }

    /** A base table. */
    public TableInfo(long id, long databaseId, String name, List<ColumnInfo> columns, List<IndexInfo> indexes,
            String handleColumn, int nextColumnId, long nextIndexId, String comment, long autoIncrementBase) {
        this(id, databaseId, name, columns, indexes, handleColumn, nextColumnId, nextIndexId, comment,
                autoIncrementBase, null);
    }

    /** A view of {@code columns}. */
    public static TableInfo view(long id, long databaseId, String name, List<ColumnInfo> columns, ViewInfo view) {
        return new TableInfo(id, databaseId, name, columns, List.of(), null, columns.size() + 1, 1, "", 0,
                requireNonNull(view, "view is null"));
    }

    /** Columns in position order that statements can see (public ones). */
    public List<ColumnInfo> publicColumns() {
        List<ColumnInfo> visible = new ArrayList<>();
        for (ColumnInfo column : columns) {
            if (column.state() == SchemaState.PUBLIC) {
                visible.add(column);
            }
        }
        visible.sort((a, b) -> Integer.compare(a.position(), b.position()));
        return visible;
    }

    public Optional<ColumnInfo> column(String columnName) {
        for (ColumnInfo column : columns) {
            if (column.name().equalsIgnoreCase(columnName)) {
                return Optional.of(column);
            }
        }
        return Optional.empty();
    }

    public Optional<IndexInfo> index(String indexName) {
        for (IndexInfo index : indexes) {
            if (index.name().equalsIgnoreCase(indexName)) {
                return Optional.of(index);
            }
        }
        return Optional.empty();
    }

    public Optional<IndexInfo> primaryKey() {
        return indexes.stream().filter(IndexInfo::primary).findFirst();
    }

    /** Whether rows are keyed by the integer primary-key column. */
    public boolean hasClusteredHandle() {
        return handleColumn != null;
    }

    /** Whether rows are keyed by the primary key, integer handle or common handle: the key has no index entries. */
    public boolean hasClusteredPrimaryKey() {
        return handleColumn != null || commonHandle;
    }

    public Optional<ColumnInfo> autoIncrementColumn() {
        return columns.stream().filter(ColumnInfo::autoIncrement).findFirst();
    }

    /** The row codec's view of the columns writers must store (public and write-only ones). */
    public List<RowColumn> rowColumns() {
        List<RowColumn> rowColumns = new ArrayList<>(columns.size());
        for (ColumnInfo column : columns) {
            rowColumns.add(new RowColumn(column.id(), column.type().storageType(), column.originDefault()));
        }
        return rowColumns;
    }

    public String lowerCaseName() {
        return name.toLowerCase(Locale.ROOT);
    }

    /** The same table under another id (TRUNCATE, a physical import's new key range). */
    public TableInfo withId(long newId) {
        return new TableInfo(newId, databaseId, name, columns, indexes, handleColumn, nextColumnId, nextIndexId, comment,
                autoIncrementBase, view, columnarReplicas, commonHandle, checks, collation, foreignKeys);
    }

    public TableInfo withName(String newName) {
        return new TableInfo(id, databaseId, newName, columns, indexes, handleColumn, nextColumnId, nextIndexId, comment,
                autoIncrementBase, view, columnarReplicas, commonHandle, checks, collation, foreignKeys);
    }

    public TableInfo withColumnsAndIndexes(List<ColumnInfo> newColumns, List<IndexInfo> newIndexes, int newNextColumnId,
            long newNextIndexId) {
        return new TableInfo(id, databaseId, name, newColumns, newIndexes, handleColumn, newNextColumnId, newNextIndexId,
                comment, autoIncrementBase, view, columnarReplicas, commonHandle, checks, collation, foreignKeys);
    }

    public TableInfo withDatabase(long newDatabaseId, String newName) {
        return new TableInfo(id, newDatabaseId, newName, columns, indexes, handleColumn, nextColumnId, nextIndexId,
                comment, autoIncrementBase, view, columnarReplicas, commonHandle, checks, collation, foreignKeys);
    }

    public TableInfo withChecks(List<CheckConstraint> newChecks) {
        return new TableInfo(id, databaseId, name, columns, indexes, handleColumn, nextColumnId, nextIndexId, comment,
                autoIncrementBase, view, columnarReplicas, commonHandle, newChecks, collation, foreignKeys);
    }

    /** The collation of the table's text columns that name none (its DEFAULT COLLATE). */
    public Collation defaultCollation() {
        return collation == null ? Collation.DEFAULT : collation;
    }

    /**
     * Whether writes compute values or test conditions beyond the columns' types: generated columns, expression
     * defaults, enforced CHECK constraints.
     */
    public boolean hasWriteExpressions() {
        return columns.stream().anyMatch(column -> column.expression() != null)
                || checks.stream().anyMatch(CheckConstraint::enforced);
    }

    public TableInfo withCollation(Collation newCollation) {
        return new TableInfo(id, databaseId, name, columns, indexes, handleColumn, nextColumnId, nextIndexId, comment,
                autoIncrementBase, view, columnarReplicas, commonHandle, checks, newCollation, foreignKeys);
    }

    public TableInfo withForeignKeys(List<ForeignKey> newForeignKeys) {
        return new TableInfo(id, databaseId, name, columns, indexes, handleColumn, nextColumnId, nextIndexId, comment,
                autoIncrementBase, view, columnarReplicas, commonHandle, checks, collation, newForeignKeys);
    }

    public TableInfo withColumnarReplicas(int count) {
        return new TableInfo(id, databaseId, name, columns, indexes, handleColumn, nextColumnId, nextIndexId, comment,
                autoIncrementBase, view, count, commonHandle, checks, collation, foreignKeys);
    }
}
