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
import io.duetdb.sql.prepare.DuetTable;

/**
 * The inner side of an index lookup join on the clustered key (TiDB's IndexJoin): when the outer side of a join
 * turned out small and the inner side is (a projection of) (a filter over) a table joined on its clustered
 * handle, the inner rows are read by batch gets of the outer side's key values instead of a scan of the whole
 * table. The hash join then runs as usual over the rows found, so its semantics do not change.
 */
public final class HandleLookup {
    /** Session variable: the most outer rows a lookup serves (0 turns lookups off). */
    public static final String MAX_OUTER_ROWS_VARIABLE = "duet_index_join_max_outer_rows";
    public static final long DEFAULT_MAX_OUTER_ROWS = 20_000;
    private static final int BATCH_KEYS = 1_024;
    /** Outer rows and the inner rows their keys reach only (no RIGHT or FULL join needs the rest). */
    private static final Set<JoinRelType> LOOKUP_JOINS = Set.of(JoinRelType.INNER, JoinRelType.LEFT, JoinRelType.SEMI);

    private final TableAccess access;
    private final int handleColumn;
    private final RexNode condition;
    private final List<RexNode> projects;
    private final RexNode outerKey;

    private HandleLookup(TableAccess access, int handleColumn, RexNode condition, List<RexNode> projects, RexNode outerKey) {
        this.access = access;
        this.handleColumn = handleColumn;
        this.condition = condition;
        this.projects = projects;
        this.outerKey = outerKey;
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
        TableAccess access = new TableAccess(scan.getTable().unwrap(DuetTable.class).table());
        String handleName = access.table().handleColumn();
        if (handleName == null) {
            return null;
        }
        List<ColumnInfo> columns = access.table().publicColumns();
        for (int i = 0; i < keys.rightKeys().size(); i++) {
            if (keys.nullSafe().get(i) || !(keys.rightKeys().get(i) instanceof RexInputRef reference)) {
                continue;
            }
            RexNode column = projects == null ? reference : projects.get(reference.getIndex());
            if (column instanceof RexInputRef scanColumn && columns.get(scanColumn.getIndex()).name().equalsIgnoreCase(handleName)) {
                return new HandleLookup(access, scanColumn.getIndex(), condition, projects, keys.leftKeys().get(i));
            }
        }
        return null;
    }

    /** The inner side's rows (in its output columns) whose handle is one of the outer rows' key values. */
    List<Object[]> read(Transaction transaction, List<Object[]> outer, ExpressionCompiler compiler) {
        requireNonNull(transaction, "transaction is null");
        RowExpression key = compiler.compile(outerKey);
        ColumnInfo handleInfo = access.table().publicColumns().get(handleColumn);
        Set<Long> handles = new LinkedHashSet<>();
        for (Object[] row : outer) {
            Object value = key.evaluate(row);
            if (value == null) {
                continue;
            }
            try {
                Object coerced = Coercion.toColumn(value, handleInfo);
                if (Values.compare(coerced, value) == 0) {
                    handles.add(Values.toLong(coerced));
                }
            } catch (DuetException e) {
                // Out of the handle column's range: no row has it.
            }
        }
        RowExpression filter = condition == null ? null : compiler.compile(condition);
        List<RowExpression> outputs = new ArrayList<>();
        if (projects != null) {
            projects.forEach(project -> outputs.add(compiler.compile(project)));
        }
        List<Object[]> rows = new ArrayList<>();
        List<byte[]> batch = new ArrayList<>(BATCH_KEYS);
        for (long handle : handles) {
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
