package io.duetdb.sql.ddl;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

import io.duetdb.client.txn.TxnClient;
import io.duetdb.common.catalog.ColumnExpression;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.catalog.DdlJob;
import io.duetdb.sql.parser.ddl.SqlAlterTableChangeColumn;
import io.duetdb.sql.parser.ddl.SqlAlterTableColumnDefault;
import io.duetdb.sql.parser.ddl.SqlColumnDefinition;

/**
 * ALTER TABLE's changes to existing columns and index names: MODIFY and CHANGE, RENAME COLUMN, ALTER COLUMN
 * SET | DROP DEFAULT, RENAME INDEX. Each is one catalog step; a change that may not fit the rows (a narrower type,
 * NOT NULL) is published first and then checked against every row, and put back if a row does not fit.
 * <p>
 * A type change that needs the rows rewritten (another storage type, decimal scale, padding) gives the column a new
 * id, so that no value stored under the old type is ever read as the new one: at once on an empty table, and on a
 * table with rows through a changing column that every row is rewritten into ({@link ColumnTypeRewrite}).
 */
final class ColumnChanges {
    private final Catalog catalog;
    private final ColumnValueCheck values;
    private final ColumnTypeRewrite rewrite;

    ColumnChanges(Catalog catalog, TxnClient client, DdlExecutor.BackfillObserver observer, IntSupplier batchSize) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.values = new ColumnValueCheck(client);
        this.rewrite = new ColumnTypeRewrite(catalog, client, observer, batchSize);
    }

    void change(String[] name, SqlAlterTableChangeColumn change, RowCompletion completion, BooleanSupplier cancelled,
            DdlJobRecord job) {
        String oldName = change.oldName().getSimple();
        TableInfo before = DdlExecutor.table(catalog.current(), name);
        ColumnInfo old = publicColumn(before, oldName);
        ColumnInfo planned = redefined(before, old, change.column(), old.id());
        if (!oldName.equalsIgnoreCase(planned.name())) {
            TableExpressions.checkNoDependents(before, old);
        }
        if (!Objects.equals(old.expression(), planned.expression())
                && (old.generated() || planned.generated())) {
            if (values.hasRows(before)) {
                throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "Unsupported modify column: changing the"
                        + " generated expression of '" + oldName + "' computes every row, which is supported only on"
                        + " an empty table yet");
            }
            List<ColumnInfo> columns = new ArrayList<>(before.publicColumns());
            columns.set(columns.indexOf(old), planned);
            TableExpressions.checkColumns(columns);
        }
        TypeChange typeChange = TypeChange.of(old.type(), planned.type());
        if (typeChange == TypeChange.REWRITE) {
            String what = "changing column '" + oldName + "' from " + old.type().toSql() + " to "
                    + planned.type().toSql();
            if (inPrimaryKey(before, old)) {
                throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "Unsupported modify column: " + what
                        + " is not supported on a primary key column");
            }
            if (values.hasRows(before)) {
                if (indexed(before, old)) {
                    throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "Unsupported modify column: " + what
                            + " rewrites the entries of its indexes, which is supported only on an empty table yet");
                }
                if (old.expression() != null || planned.expression() != null || hasDependents(before, old)) {
                    throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "Unsupported modify column: " + what
                            + " on a table with rows, where the column is computed or other columns or constraints"
                            + " read it");
                }
                rewrite.run(name, old, planned, position(before, old, change), completion, cancelled, job);
                return;
            }
        }
        if (old.type().effectiveCollation() != planned.type().effectiveCollation() && indexed(before, old)
                && values.hasRows(before)) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "Unsupported modify column: changing the collation"
                    + " of indexed column '" + oldName + "' rebuilds its index entries, which is supported only on an"
                    + " empty table yet");
        }
        boolean rewrite = typeChange == TypeChange.REWRITE;
        boolean checked = typeChange == TypeChange.NARROWING || planned.notNull() && !old.notNull();
        String description = "modify column " + oldName + " of " + name[1];
        TableInfo published = job.runDdl(description, (ddl, current) -> {
            TableInfo table = DdlExecutor.table(current, name);
            ColumnInfo column = publicColumn(table, oldName);
            if (!column.equals(old)) {
                throw new DuetException(ErrorCode.SCHEMA_CHANGED, "Column '" + oldName + "' of '" + name[1]
                        + "' changed during the ALTER TABLE; run it again");
            }
            ColumnInfo replacement = redefined(table, column, change.column(), rewrite ? table.nextColumnId() : column.id());
            if (!rewrite) {
                replacement = replacement.withOriginOf(column);
            }
            TableInfo changed = replaced(table, column, replacement, position(table, column, change));
            ddl.putTable(changed);
            job.describe(name[0], table.name(), table.databaseId(), table.id(),
                    DdlJob.schemaStateText(SchemaState.PUBLIC));
            return changed;
        });
        if (!checked) {
            return;
        }
        ColumnInfo replacement = published.column(change.column().name().getSimple()).orElseThrow();
        try {
            values.check(published, replacement, cancelled, job);
        } catch (RuntimeException e) {
            job.runDdl(description + " (rolled back)", (ddl, current) -> {
                TableInfo table = DdlExecutor.table(current, name);
                ColumnInfo column = table.columns().stream().filter(c -> c.id() == replacement.id()).findFirst()
                        .orElse(null);
                if (column != null) {
                    ddl.putTable(replaced(table, column, old, table.publicColumns().indexOf(column)));
                }
                job.schemaState(DdlJob.NO_SCHEMA_STATE);
                return null;
            });
            throw e;
        }
    }

    void renameColumn(String[] name, String from, String to, DdlJobRecord job) {
        job.runDdl("rename column " + from + " of " + name[1] + " to " + to, (ddl, current) -> {
            TableInfo table = DdlExecutor.table(current, name);
            ColumnInfo column = publicColumn(table, from);
            if (!from.equalsIgnoreCase(to)) {
                TableExpressions.checkNoDependents(table, column);
            }
            checkNewName(table, column, to);
            ddl.putTable(replaced(table, column, column.withName(to), table.publicColumns().indexOf(column)));
            job.describe(name[0], table.name(), table.databaseId(), table.id(),
                    DdlJob.schemaStateText(SchemaState.PUBLIC));
            return null;
        });
    }

    void setDefault(String[] name, SqlAlterTableColumnDefault alter, DdlJobRecord job) {
        String columnName = alter.column().getSimple();
        job.runDdl("set default of column " + columnName + " of " + name[1], (ddl, current) -> {
            TableInfo table = DdlExecutor.table(current, name);
            ColumnInfo column = publicColumn(table, columnName);
            ColumnExpression expression = alter.defaultValue() == null || column.generated() ? null
                    : ColumnDefinitions.defaultExpression(alter.defaultValue(), alter.defaultText(), column.type(),
                            column.autoIncrement(), columnName);
            ColumnInfo replacement;
            if (expression != null) {
                // Rows written before keep their values: only writes from now on compute the expression.
                replacement = column.withDefault(true, null, false).withExpression(expression).withOriginOf(column);
            } else {
                ColumnDefinitions.ColumnDefault columnDefault = alter.defaultValue() == null
                        ? ColumnDefinitions.ColumnDefault.NONE
                        : ColumnDefinitions.defaultOf(alter.defaultValue(), column.type(), column.notNull(), columnName);
                replacement = columnDefault.applyTo(column).withOriginOf(column);
            }
            TableInfo changed = replaced(table, column, replacement, table.publicColumns().indexOf(column));
            if (expression != null) {
                TableExpressions.checkColumns(changed.publicColumns());
                TableExpressions.plan(current.database(table.databaseId()).orElseThrow(), changed);
            }
            ddl.putTable(changed);
            job.describe(name[0], table.name(), table.databaseId(), table.id(),
                    DdlJob.schemaStateText(SchemaState.PUBLIC));
            return null;
        });
    }

    void renameIndex(String[] name, String from, String to, DdlJobRecord job) {
        job.runDdl("rename index " + from + " of " + name[1] + " to " + to, (ddl, current) -> {
            TableInfo table = DdlExecutor.table(current, name);
            IndexInfo index = table.index(from).filter(i -> i.state() == SchemaState.PUBLIC).orElseThrow(() ->
                    new DuetException(ErrorCode.KEY_DOES_NOT_EXIST, "Key '" + from + "' doesn't exist in table '"
                            + table.name() + "'"));
            if (index.primary() || to.equalsIgnoreCase(IndexInfo.PRIMARY_NAME)) {
                throw new DuetException(ErrorCode.WRONG_NAME_FOR_INDEX, "Incorrect index name '"
                        + (index.primary() ? from : to) + "'");
            }
            if (!to.equalsIgnoreCase(from) && table.index(to).isPresent()) {
                throw new DuetException(ErrorCode.DUPLICATE_KEY_NAME, "Duplicate key name '" + to + "'");
            }
            List<IndexInfo> indexes = new ArrayList<>();
            for (IndexInfo existing : table.indexes()) {
                indexes.add(existing == index ? new IndexInfo(index.id(), to, index.columns(), index.unique(),
                        index.primary(), index.state()) : existing);
            }
            ddl.putTable(table.withColumnsAndIndexes(table.columns(), indexes, table.nextColumnId(),
                    table.nextIndexId()));
            job.describe(name[0], table.name(), table.databaseId(), table.id(),
                    DdlJob.schemaStateText(SchemaState.PUBLIC));
            return null;
        });
    }

    /** {@code column} as {@code definition} redefines it, with {@code id}; checks what MySQL checks. */
    private static ColumnInfo redefined(TableInfo table, ColumnInfo column, SqlColumnDefinition definition, int id) {
        if (definition.key() != null) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "Unsupported modify column: a key in the column"
                    + " definition; add the index with ADD INDEX");
        }
        checkNewName(table, column, definition.name().getSimple());
        ColumnInfo replacement = ColumnDefinitions.column(definition, id, column.position(), inPrimaryKey(table, column),
                table.defaultCollation());
        if (replacement.autoIncrement() && !column.autoIncrement()) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "Unsupported modify column: can't set"
                    + " auto_increment on an existing column");
        }
        return replacement;
    }

    private static void checkNewName(TableInfo table, ColumnInfo column, String newName) {
        if (!newName.equalsIgnoreCase(column.name()) && table.column(newName).isPresent()) {
            throw new DuetException(ErrorCode.DUPLICATE_COLUMN, "Duplicate column name '" + newName + "'");
        }
    }

    private static ColumnInfo publicColumn(TableInfo table, String name) {
        return table.column(name).filter(c -> c.state() == SchemaState.PUBLIC).orElseThrow(() ->
                new DuetException(ErrorCode.UNKNOWN_COLUMN, "Unknown column '" + name + "' in '" + table.name() + "'"));
    }

    private static boolean inPrimaryKey(TableInfo table, ColumnInfo column) {
        return table.primaryKey().map(key -> key.columns().stream().anyMatch(c -> c.equalsIgnoreCase(column.name())))
                .orElse(false) || column.name().equalsIgnoreCase(String.valueOf(table.handleColumn()));
    }

    /** Whether generated columns or CHECK constraints read the column (a key on it needs an index). */
    private static boolean hasDependents(TableInfo table, ColumnInfo column) {
        try {
            TableExpressions.checkNoDependents(table, column);
            return false;
        } catch (DuetException e) {
            return true;
        }
    }

    private static boolean indexed(TableInfo table, ColumnInfo column) {
        return table.indexes().stream().anyMatch(index -> index.columns().stream()
                .anyMatch(c -> c.equalsIgnoreCase(column.name())));
    }

    /** Where among the public columns (less the changed one) the changed column goes: FIRST, AFTER c, or its place. */
    private static int position(TableInfo table, ColumnInfo column, SqlAlterTableChangeColumn change) {
        List<ColumnInfo> others = new ArrayList<>(table.publicColumns());
        int own = others.indexOf(column);
        others.remove(column);
        if (change.first()) {
            return 0;
        }
        if (change.after() == null) {
            return own;
        }
        String after = change.after().getSimple();
        for (int i = 0; i < others.size(); i++) {
            if (others.get(i).name().equalsIgnoreCase(after)) {
                return i + 1;
            }
        }
        throw new DuetException(ErrorCode.UNKNOWN_COLUMN, "Unknown column '" + after + "' in '" + table.name() + "'");
    }

    /**
     * The table's columns with {@code ordered} as its public (or becoming public) ones, positioned in that order;
     * columns in other states stay as they are.
     */
    static List<ColumnInfo> inPublicOrder(TableInfo table, List<ColumnInfo> ordered) {
        List<ColumnInfo> columns = new ArrayList<>();
        for (ColumnInfo existing : table.columns()) {
            if (existing.state() != SchemaState.PUBLIC) {
                columns.add(existing);
            }
        }
        for (int i = 0; i < ordered.size(); i++) {
            columns.add(ordered.get(i).withPosition(i));
        }
        return columns;
    }

    /**
     * {@code table} with {@code column} replaced by {@code replacement} at {@code position} among the public
     * columns, its indexes and clustered handle following a new name.
     */
    private static TableInfo replaced(TableInfo table, ColumnInfo column, ColumnInfo replacement, int position) {
        List<ColumnInfo> ordered = new ArrayList<>(table.publicColumns());
        ordered.remove(column);
        ordered.add(position, replacement);
        List<ColumnInfo> columns = inPublicOrder(table, ordered);
        String oldName = column.name();
        String newName = replacement.name();
        List<IndexInfo> indexes = new ArrayList<>();
        for (IndexInfo index : table.indexes()) {
            List<String> indexColumns = new ArrayList<>();
            for (String indexed : index.columns()) {
                indexColumns.add(indexed.equalsIgnoreCase(oldName) ? newName : indexed);
            }
            indexes.add(new IndexInfo(index.id(), index.name(), indexColumns, index.unique(), index.primary(),
                    index.state()));
        }
        int nextColumnId = Math.max(table.nextColumnId(), replacement.id() + 1);
        String handle = oldName.equalsIgnoreCase(String.valueOf(table.handleColumn())) ? newName : table.handleColumn();
        return new TableInfo(table.id(), table.databaseId(), table.name(), columns, indexes, handle, nextColumnId,
                table.nextIndexId(), table.comment(), table.autoIncrementBase(), table.view(), table.columnarReplicas(),
                table.commonHandle(), table.checks(), table.collation(), table.foreignKeys());
    }
}
