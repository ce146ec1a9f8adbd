package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

import com.google.protobuf.ByteString;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.error.DuetException;
import io.duetdb.sql.catalog.ColumnInfo;
import io.duetdb.sql.catalog.IndexInfo;
import io.duetdb.sql.catalog.SchemaState;
import io.duetdb.sql.prepare.DuetTable;

/**
 * The inner side of an index lookup join (TiDB's IndexJoin): when the outer side of a join turned out small and the
 * inner side is (a projection of) (a filter over) a table joined on its clustered handle, the inner rows are read by
 * batch gets of the outer side's key values instead of a scan of the whole table; when it is joined on the first
 * column of a secondary index instead, each distinct key value's index entries are read and then their rows by
 * batch gets (the double read), as long as the keys are few beside the table's rows. The hash join then runs as
 * usual over the rows found, so its semantics do not change.
 */
public final class HandleLookup {
    /** Session variable: the most outer rows a lookup serves (0 turns lookups off). */
    public static final String MAX_OUTER_ROWS_VARIABLE = "duet_index_join_max_outer_rows";
    public static final long DEFAULT_MAX_OUTER_ROWS = 20_000;
    private static final int BATCH_KEYS = 1_024;
    private static final int SCAN_PAGE = 256;
    /**
     * Table rows a secondary-index key must stand against: one key's entries cost a scan request, about what reading
     * this many rows of the table costs, so more keys than rows / this read the whole table instead.
     */
    static final long ROWS_PER_INDEX_KEY = 1_000;
    /** The most keys a secondary-index lookup serves when the table was never analyzed. */
    static final int UNANALYZED_INDEX_KEYS = 100;
    /** Outer rows and the inner rows their keys reach only (no RIGHT or FULL join needs the rest). */
    private static final Set<JoinRelType> LOOKUP_JOINS = Set.of(JoinRelType.INNER, JoinRelType.LEFT, JoinRelType.SEMI);

    private final TableAccess access;
    private final int keyColumn;
    private final IndexInfo index;
    private final long tableRows;
    private final RexNode condition;
    private final List<RexNode> projects;
    private final RexNode outerKey;

    private HandleLookup(TableAccess access, int keyColumn, IndexInfo index, long tableRows, RexNode condition,
            List<RexNode> projects, RexNode outerKey) {
        this.access = access;
        this.keyColumn = keyColumn;
        this.index = index;
        this.tableRows = tableRows;
        this.condition = condition;
        this.projects = projects;
        this.outerKey = outerKey;
    }

    /** Whether the inner rows are read by their clustered keys (else through a secondary index's entries). */
    boolean byClusteredKey() {
        return index == null;
    }

    /** The secondary index the lookups read, or null for clustered-key lookups. */
    IndexInfo index() {
        return index;
    }

    static long maxOuterRows(SessionFunctions session) {
        Object value = session.systemVariable("", MAX_OUTER_ROWS_VARIABLE);
        return value == null ? DEFAULT_MAX_OUTER_ROWS : Values.toLong(value);
    }

    /** The lookup for a join's inner (right) side, or null when it is not one table joined on its handle. */
    static HandleLookup of(Join join, JoinKeys keys) {
        if (!LOOKUP_JOINS.contains(join.getJoinType())) {
            return null;
        }
        RelNode node = join.getRight();
        List<RexNode> projects = null;
        RexNode condition = null;
        if (node instanceof Project project) {
            projects = project.getProjects();
            node = project.getInput();
        }
        if (node instanceof Filter filter) {
            condition = filter.getCondition();
            node = filter.getInput();
        }
        if (!(node instanceof TableScan scan) || scan.getTable().unwrap(DuetTable.class) == null) {
            return null;
        }
        DuetTable table = scan.getTable().unwrap(DuetTable.class);
        TableAccess access = new TableAccess(table.table());
        String handleName = access.table().handleColumn();
        List<ColumnInfo> columns = access.table().publicColumns();
        HandleLookup byIndex = null;
        for (int i = 0; i < keys.rightKeys().size(); i++) {
            if (keys.nullSafe().get(i) || !(keys.rightKeys().get(i) instanceof RexInputRef reference)) {
                continue;
            }
            RexNode column = projects == null ? reference : projects.get(reference.getIndex());
            if (!(column instanceof RexInputRef scanColumn)) {
                continue;
            }
            String name = columns.get(scanColumn.getIndex()).name();
            if (handleName != null && name.equalsIgnoreCase(handleName)) {
                return new HandleLookup(access, scanColumn.getIndex(), null, 0, condition, projects, keys.leftKeys().get(i));
            }
            IndexInfo index = byIndex != null ? null : leadingIndex(access, name);
            if (index != null) {
                long rows = table.statistics().rowCount(access.table().id()).orElse(-1);
                byIndex = new HandleLookup(access, scanColumn.getIndex(), index, rows, condition, projects,
                        keys.leftKeys().get(i));
            }
        }
        return byIndex;
    }

    /** A public secondary index whose first column is {@code column}, or null. */
    private static IndexInfo leadingIndex(TableAccess access, String column) {
        for (IndexInfo index : access.table().indexes()) {
            if (index.state() == SchemaState.PUBLIC && !index.primary() && index.columns().get(0).equalsIgnoreCase(column)) {
                return index;
            }
        }
        return null;
    }

    /** Whether a lookup of this many distinct keys is cheaper than reading the inner table whole. */
    boolean worthIt(int distinctKeys) {
        if (index == null) {
            return true;
        }
        return tableRows < 0 ? distinctKeys <= UNANALYZED_INDEX_KEYS : distinctKeys * ROWS_PER_INDEX_KEY <= tableRows;
    }

    /** The distinct values of the outer rows' keys that the inner key column can hold, as that column holds them. */
    List<Object> keyValues(List<Object[]> outer, ExpressionCompiler compiler) {
        RowExpression key = compiler.compile(outerKey);
        ColumnInfo info = access.table().publicColumns().get(keyColumn);
        Set<Object> values = new LinkedHashSet<>();
        for (Object[] row : outer) {
            Object value = key.evaluate(row);
            if (value == null) {
                continue;
            }
            try {
                Object coerced = Coercion.toColumn(value, info);
                if (Values.compare(coerced, value) == 0) {
                    values.add(index == null ? (Object) Values.toLong(coerced) : TableAccess.toStorage(info, coerced));
                }
            } catch (DuetException e) {
                // Out of the key column's range: no row has it.
            }
        }
        return new ArrayList<>(values);
    }

    /** The inner side's rows (in its output columns) whose key is one of {@code keyValues}. */
    List<Object[]> read(Transaction transaction, List<Object> keyValues, ExpressionCompiler compiler) {
        requireNonNull(transaction, "transaction is null");
        RowExpression filter = condition == null ? null : compiler.compile(condition);
        List<RowExpression> outputs = new ArrayList<>();
        if (projects != null) {
            projects.forEach(project -> outputs.add(compiler.compile(project)));
        }
        List<Object[]> rows = new ArrayList<>();
        List<byte[]> batch = new ArrayList<>(BATCH_KEYS);
        for (long handle : index == null ? keyValues.stream().map(value -> (Long) value).toList()
                : indexHandles(transaction, keyValues)) {
            batch.add(access.rowKey(handle));
            if (batch.size() == BATCH_KEYS) {
                fetch(transaction, batch, filter, outputs, rows);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            fetch(transaction, batch, filter, outputs, rows);
        }
        return rows;
    }

    /** The handles of the index entries whose first column holds one of {@code values}, in the values' order. */
    private Set<Long> indexHandles(Transaction transaction, List<Object> values) {
        List<io.duetdb.common.types.ColumnType> types = access.indexTypes(index).subList(0, 1);
        Set<Long> handles = new LinkedHashSet<>();
        for (Object value : values) {
            byte[] prefix = io.duetdb.common.keys.Keys.indexValuesPrefix(access.table().id(), index.id(), types, List.of(value));
            TableAccess.forEachIndexPage(transaction, prefix, io.duetdb.common.keys.Keys.indexValuesEnd(prefix), SCAN_PAGE,
                    handles::addAll);
        }
        return handles;
    }

    private void fetch(Transaction transaction, List<byte[]> keys, RowExpression filter, List<RowExpression> outputs,
            List<Object[]> rows) {
        Map<ByteString, byte[]> values = transaction.batchGet(keys);
        for (byte[] rowKey : keys) {
            byte[] value = values.get(ByteString.copyFrom(rowKey));
            if (value == null) {
                continue;
            }
            Object[] row = access.publicValues(access.decode(value));
            if (filter != null && !Boolean.TRUE.equals(Values.truth(filter.evaluate(row)))) {
                continue;
            }
            if (outputs.isEmpty()) {
                rows.add(row);
            } else {
                Object[] output = new Object[outputs.size()];
                for (int i = 0; i < output.length; i++) {
                    output[i] = outputs.get(i).evaluate(row);
                }
                rows.add(output);
            }
        }
    }
}
