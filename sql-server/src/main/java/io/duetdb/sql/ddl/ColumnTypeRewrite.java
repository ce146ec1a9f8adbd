package io.duetdb.sql.ddl;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

import io.duetdb.client.txn.TxnClient;
import io.duetdb.common.catalog.ColumnExpression;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.catalog.DdlJob;

/**
 * MODIFY or CHANGE of a column whose stored values need rewriting (another storage type, decimal scale, fewer
 * fractional seconds) on a table that holds rows, online, as TiDB changes column types:
 * <ol>
 * <li>A changing column of the new definition is added under a hidden name, as a stored column computed from the
 * old one: every writer converts the old column's value into it as an INSERT converts values (strictly), and the
 * backfill does so in every row. A row whose value does not convert fails the ALTER, and the changing column is
 * taken back.</li>
 * <li>In one step the changing column takes the column's name, place and public state, and the old column goes
 * write-only under the hidden name, computed back from the new one ({@link ColumnExpression.Kind#PREVIOUS_TYPE}).
 * Servers still on the previous schema read and write the old column, so every writer on the new one keeps it
 * exact: a value the old type cannot hold as it is fails that statement, and no server ever carries a value the
 * other column lost.</li>
 * <li>The old column goes delete-only, then away.</li>
 * </ol>
 * Indexed and primary key columns, and columns other columns' expressions read, are left to an empty table.
 */
final class ColumnTypeRewrite {
    private static final String HIDDEN_PREFIX = "_Col$_";

    private final Catalog catalog;
    private final TxnClient client;
    private final DdlExecutor.BackfillObserver observer;
    private final IntSupplier batchSize;

    ColumnTypeRewrite(Catalog catalog, TxnClient client, DdlExecutor.BackfillObserver observer, IntSupplier batchSize) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.client = requireNonNull(client, "client is null");
        this.observer = requireNonNull(observer, "observer is null");
        this.batchSize = requireNonNull(batchSize, "batchSize is null");
    }

    /**
     * Replaces {@code old} (public in the table {@code name}) by {@code planned}, placed at {@code position} among
     * the other public columns.
     */
    void run(String[] name, ColumnInfo old, ColumnInfo planned, int position, RowCompletion completion,
            BooleanSupplier cancelled, DdlJobRecord job) {
        String description = "modify column " + old.name() + " of " + name[1];
        String[] hidden = new String[1];
        int changingId = job.runDdl(description + " (changing column, delete only)", (ddl, current) -> {
            TableInfo table = DdlExecutor.table(current, name);
            checkUnchanged(table, old, name);
            hidden[0] = hiddenName(table, old.name());
            ColumnInfo changing = planned.withName(hidden[0])
                    .withExpression(new ColumnExpression(quoted(old.name()), ColumnExpression.Kind.STORED));
            changing = new ColumnInfo(table.nextColumnId(), changing.name(), old.position(), changing.type(),
                    changing.notNull(), changing.hasDefault(), changing.defaultValue(),
                    changing.defaultCurrentTimestamp(), changing.autoIncrement(), changing.onUpdateCurrentTimestamp(),
                    changing.comment(), SchemaState.DELETE_ONLY, false, null, changing.expression());
            List<ColumnInfo> columns = new ArrayList<>(table.columns());
            columns.add(changing);
            ddl.putTable(table.withColumnsAndIndexes(columns, table.indexes(), table.nextColumnId() + 1,
                    table.nextIndexId()));
            job.describe(name[0], table.name(), table.databaseId(), table.id(),
                    DdlJob.schemaStateText(SchemaState.DELETE_ONLY));
            return changing.id();
        });
        try {
            ColumnStates.move(name, changingId, SchemaState.WRITE_ONLY, job);
            ColumnStates.move(name, changingId, SchemaState.WRITE_REORGANIZATION, job);
            TableInfo reorganizing = DdlExecutor.table(catalog.current(), name);
            new ColumnBackfill(client, observer).run(reorganizing, completion.forTable(reorganizing),
                    batchSize.getAsInt(), cancelled, job);
            job.runDdl(description + " (swapped)", (ddl, current) -> {
                TableInfo table = DdlExecutor.table(current, name);
                checkUnchanged(table, old, name);
                ddl.putTable(swapped(table, old.id(), changingId, planned, position));
                job.schemaState(DdlJob.schemaStateText(SchemaState.PUBLIC));
                return null;
            });
        } catch (DuetException e) {
            ColumnStates.remove(name, changingId, description + " (rolled back)", job);
            if (e.code() == ErrorCode.COLUMN_CANNOT_BE_NULL) {
                throw new DuetException(ErrorCode.INVALID_USE_OF_NULL, "Invalid use of NULL value", e);
            }
            // The changing column's hidden name means nothing to the user: the error is about the column.
            throw new DuetException(e.code(), e.getMessage().replace(hidden[0], old.name()), e);
        } catch (RuntimeException e) {
            ColumnStates.remove(name, changingId, description + " (rolled back)", job);
            throw e;
        }
        ColumnStates.move(name, old.id(), SchemaState.DELETE_ONLY, job);
        ColumnStates.remove(name, old.id(), description + " (previous column removed)", job);
    }

    /**
     * The table with the changing column public under the planned name at {@code position}, and the old column
     * write-only under a hidden name, computed back from it.
     */
    static TableInfo swapped(TableInfo table, int oldId, int changingId, ColumnInfo planned, int position) {
        ColumnInfo old = column(table, oldId);
        ColumnInfo changing = column(table, changingId);
        List<ColumnInfo> ordered = new ArrayList<>(table.publicColumns());
        ordered.remove(old);
        ordered.add(position, changing.withName(planned.name()).withExpression(planned.expression())
                .withState(SchemaState.PUBLIC));
        List<ColumnInfo> columns = new ArrayList<>();
        for (ColumnInfo existing : table.columns()) {
            if (existing.state() != SchemaState.PUBLIC && existing.id() != changingId) {
                columns.add(existing);
            }
        }
        columns.add(old.withName(changing.name()).withState(SchemaState.WRITE_ONLY)
                .withExpression(new ColumnExpression(quoted(planned.name()), ColumnExpression.Kind.PREVIOUS_TYPE)));
        for (int i = 0; i < ordered.size(); i++) {
            columns.add(ordered.get(i).withPosition(i));
        }
        return table.withColumnsAndIndexes(columns, table.indexes(), table.nextColumnId(), table.nextIndexId());
    }

    private static ColumnInfo column(TableInfo table, int id) {
        return table.columns().stream().filter(column -> column.id() == id).findFirst()
                .orElseThrow(() -> new IllegalStateException("column " + id + " of " + table.name() + " is gone"));
    }

    private static void checkUnchanged(TableInfo table, ColumnInfo old, String[] name) {
        ColumnInfo current = table.columns().stream().filter(column -> column.id() == old.id()).findFirst()
                .orElse(null);
        if (current == null || current.state() != SchemaState.PUBLIC || !current.withPosition(old.position()).equals(old)) {
            throw new DuetException(ErrorCode.SCHEMA_CHANGED, "Column '" + old.name() + "' of '" + name[1]
                    + "' changed during the ALTER TABLE; run it again");
        }
    }

    private static String hiddenName(TableInfo table, String column) {
        String hidden = HIDDEN_PREFIX + column;
        for (int i = 1; table.column(hidden).isPresent(); i++) {
            hidden = HIDDEN_PREFIX + column + "_" + i;
        }
        return hidden;
    }

    private static String quoted(String column) {
        return "`" + column.replace("`", "``") + "`";
    }
}
