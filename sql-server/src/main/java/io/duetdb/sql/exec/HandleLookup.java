package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.calcite.plan.RelOptUtil;
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
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.keys.Handle;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.types.ColumnType;
import io.duetdb.sql.prepare.DuetTable;
import io.duetdb.sql.prepare.KeyPoints;

/**
 * The inner side of an index lookup join (TiDB's IndexJoin): when the outer side of a join turned out small and the
 * inner side is (a projection of) (a filter over) a table joined on its clustered handle, the inner rows are read by
 * batch gets of the outer side's key values instead of a scan of the whole table. Joined instead on columns of a
 * secondary index (or of a composite primary key) whose leading columns are each a join key or fixed by an
 * equality of the inner filter ({@code s_w_id = ?} beside {@code s_i_id = ol_i_id}), each distinct key tuple's
 * index entries are read and then their rows by batch gets (the double read): by batch gets of the entries too when
 * the tuple covers a unique index, by a scan of the tuple's prefix otherwise, as long as the keys are few beside the
 * table's rows. A clustered primary key of other columns (a common handle) is read the same way, its records standing
 * for the entries: a whole key is a row key, a prefix a range of records. The hash join then runs as usual over the
 * rows found, so its semantics do not change.
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
    /** As {@link #ROWS_PER_INDEX_KEY} for a unique key read by batch gets: an entry and a row per key. */
    static final long ROWS_PER_UNIQUE_KEY = 4;
    /** The most keys a secondary-index lookup serves when the table was never analyzed. */
    static final int UNANALYZED_INDEX_KEYS = 100;
    /** Outer rows and the inner rows their keys reach only (no RIGHT or FULL join needs the rest). */
    private static final Set<JoinRelType> LOOKUP_JOINS = Set.of(JoinRelType.INNER, JoinRelType.LEFT, JoinRelType.SEMI);

    /**
     * One leading column of the index looked up (the handle's column for clustered lookups): its value comes from
     * the outer row ({@code outerKey}) or is a constant of the inner filter ({@code constant}).
     */
    private record KeyPart(int column, RexNode outerKey, RexNode constant) {
    }

    private final TableAccess access;
    private final IndexInfo index;
    private final List<KeyPart> parts;
    private final long tableRows;
    private final RexNode condition;
    private final List<RexNode> projects;

    private HandleLookup(TableAccess access, IndexInfo index, List<KeyPart> parts, long tableRows, RexNode condition,
            List<RexNode> projects) {
        this.access = access;
        this.index = index;
        this.parts = List.copyOf(parts);
        this.tableRows = tableRows;
        this.condition = condition;
        this.projects = projects;
    }

    /** Whether the inner rows are read by their clustered keys (else through a secondary index's entries). */
    boolean byClusteredKey() {
        return index == null;
    }

    /** The secondary index the lookups read, or null for clustered-key lookups. */
    IndexInfo index() {
        return index;
    }

    /** Whether each key tuple is a whole unique key, so its entry is read by a batch get rather than a scan. */
    boolean byUniqueKey() {
        return index != null && index.unique() && parts.size() == index.columns().size();
    }

    static long maxOuterRows(SessionFunctions session) {
        Object value = session.systemVariable("", MAX_OUTER_ROWS_VARIABLE);
        return value == null ? DEFAULT_MAX_OUTER_ROWS : Values.toLong(value);
    }

    /** The lookup for a join's inner (right) side, or null when no handle or index of its table serves the join. */
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
        // Inner table column -> the outer key it is joined on.
        Map<Integer, RexNode> joined = new HashMap<>();
        for (int i = 0; i < keys.rightKeys().size(); i++) {
            if (keys.nullSafe().get(i) || !(keys.rightKeys().get(i) instanceof RexInputRef reference)) {
                continue;
            }
            RexNode column = projects == null ? reference : projects.get(reference.getIndex());
            if (column instanceof RexInputRef scanColumn) {
                if (handleName != null && columns.get(scanColumn.getIndex()).name().equalsIgnoreCase(handleName)) {
                    return new HandleLookup(access, null, List.of(new KeyPart(scanColumn.getIndex(),
                            keys.leftKeys().get(i), null)), 0, condition, projects);
                }
                joined.putIfAbsent(scanColumn.getIndex(), keys.leftKeys().get(i));
            }
        }
        if (joined.isEmpty()) {
            return null;
        }
        Map<Integer, RexNode> fixed = new HashMap<>();
        if (condition != null) {
            RexNode expanded = SearchExpansion.expand(join.getCluster().getRexBuilder(), condition);
            for (RexNode conjunct : RelOptUtil.conjunctions(expanded)) {
                KeyPoints.equality(conjunct).ifPresent(equality -> fixed.putIfAbsent(equality.getKey(), equality.getValue()));
            }
        }
        List<KeyPart> best = List.of();
        IndexInfo bestIndex = null;
        for (IndexInfo index : access.table().indexes()) {
            if (index.state() != SchemaState.PUBLIC || index.primary() && handleName != null) {
                continue;
            }
            List<KeyPart> parts = leadingParts(index, columns, joined, fixed);
            boolean wholeUnique = index.unique() && parts.size() == index.columns().size();
            boolean bestWholeUnique = bestIndex != null && bestIndex.unique() && best.size() == bestIndex.columns().size();
            boolean usesJoin = parts.stream().anyMatch(part -> part.outerKey() != null);
            if (usesJoin && (bestIndex == null || wholeUnique && !bestWholeUnique
                    || wholeUnique == bestWholeUnique && parts.size() > best.size())) {
                best = parts;
                bestIndex = index;
            }
        }
        if (bestIndex == null) {
            return null;
        }
        long rows = table.statistics().rowCount(access.table().id()).orElse(-1);
        return new HandleLookup(access, bestIndex, best, rows, condition, projects);
    }

    /** The index's leading columns that a join key or a constant of the inner filter sets. */
    private static List<KeyPart> leadingParts(IndexInfo index, List<ColumnInfo> columns, Map<Integer, RexNode> joined,
            Map<Integer, RexNode> fixed) {
        List<KeyPart> parts = new ArrayList<>();
        for (String name : index.columns()) {
            int column = -1;
            for (int i = 0; i < columns.size(); i++) {
                if (columns.get(i).name().equalsIgnoreCase(name)) {
                    column = i;
                }
            }
            if (joined.containsKey(column)) {
                parts.add(new KeyPart(column, joined.get(column), null));
            } else if (fixed.containsKey(column)) {
                parts.add(new KeyPart(column, null, fixed.get(column)));
            } else {
                break;
            }
        }
        return parts;
    }

    /** Whether a lookup of this many distinct keys is cheaper than reading the inner table whole. */
    boolean worthIt(int distinctKeys) {
        if (index == null) {
            return true;
        }
        if (byUniqueKey()) {
            return tableRows < 0 || distinctKeys * ROWS_PER_UNIQUE_KEY <= tableRows;
        }
        return tableRows < 0 ? distinctKeys <= UNANALYZED_INDEX_KEYS : distinctKeys * ROWS_PER_INDEX_KEY <= tableRows;
    }

    /**
     * The distinct key tuples of the outer rows that the inner key columns can hold, in storage form (handles for
     * clustered lookups); a tuple with a NULL, or with a value its column cannot hold exactly, matches no row.
     */
    List<List<Object>> keyValues(List<Object[]> outer, ExpressionCompiler compiler) {
        List<RowExpression> outerKeys = new ArrayList<>(parts.size());
        List<Object> constants = new ArrayList<>(parts.size());
        for (KeyPart part : parts) {
            outerKeys.add(part.outerKey() == null ? null : compiler.compile(part.outerKey()));
            constants.add(part.constant() == null ? null : compiler.compile(part.constant()).evaluate(new Object[0]));
        }
        Set<List<Object>> tuples = new LinkedHashSet<>();
        for (Object[] row : outer) {
            List<Object> tuple = new ArrayList<>(parts.size());
            for (int i = 0; i < parts.size(); i++) {
                Object value = outerKeys.get(i) == null ? constants.get(i) : outerKeys.get(i).evaluate(row);
                Object stored = stored(parts.get(i).column(), value);
                if (stored == null) {
                    break;
                }
                tuple.add(stored);
            }
            if (tuple.size() == parts.size()) {
                tuples.add(tuple);
            }
        }
        return new ArrayList<>(tuples);
    }

    /** A key value as its column stores it, or null when no row can hold it there. */
    private Object stored(int column, Object value) {
        if (value == null) {
            return null;
        }
        ColumnInfo info = access.table().publicColumns().get(column);
        try {
            Object coerced = Coercion.toColumn(value, info);
            if (Values.compare(coerced, value) != 0) {
                return null;
            }
            return index == null ? (Object) Values.toLong(coerced) : TableAccess.toKey(info, coerced);
        } catch (DuetException e) {
            return null; // out of the key column's range
        }
    }

    /** The inner side's rows (in its output columns) whose key is one of {@code keyValues}. */
    List<Object[]> read(Transaction transaction, List<List<Object>> keyValues, ExpressionCompiler compiler) {
        requireNonNull(transaction, "transaction is null");
        RowExpression filter = condition == null ? null : compiler.compile(condition);
        List<RowExpression> outputs = new ArrayList<>();
        if (projects != null) {
            projects.forEach(project -> outputs.add(compiler.compile(project)));
        }
        Collection<Handle> handles;
        List<Object[]> rows = new ArrayList<>();
        if (index == null) {
            handles = keyValues.stream().map(tuple -> Handle.of((Long) tuple.get(0))).toList();
        } else if (index.primary() && access.commonHandleKey() != null) {
            if (!byUniqueKey()) {
                clusteredPrefixRows(transaction, keyValues, filter, outputs, rows);
                return rows;
            }
            List<ColumnType> types = access.indexTypes(index);
            handles = keyValues.stream().map(tuple -> Keys.commonHandle(types, tuple)).toList();
        } else if (byUniqueKey()) {
            handles = uniqueHandles(transaction, keyValues);
        } else {
            handles = indexHandles(transaction, keyValues);
        }
        List<byte[]> batch = new ArrayList<>(BATCH_KEYS);
        for (Handle handle : handles) {
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

    private byte[] prefix(List<Object> tuple) {
        List<ColumnType> types = access.indexTypes(index).subList(0, tuple.size());
        return Keys.indexValuesPrefix(access.table().id(), index.id(), types, tuple);
    }

    /** The handles of the unique entries keyed by whole tuples, read by batch gets. */
    private Set<Handle> uniqueHandles(Transaction transaction, List<List<Object>> tuples) {
        Set<Handle> handles = new LinkedHashSet<>();
        for (int from = 0; from < tuples.size(); from += BATCH_KEYS) {
            List<byte[]> keys = new ArrayList<>();
            for (List<Object> tuple : tuples.subList(from, Math.min(tuples.size(), from + BATCH_KEYS))) {
                keys.add(prefix(tuple));
            }
            Map<ByteString, byte[]> entries = transaction.batchGet(keys);
            for (byte[] key : keys) {
                byte[] entry = entries.get(ByteString.copyFrom(key));
                if (entry != null) {
                    handles.add(access.handleOfValue(entry));
                }
            }
        }
        return handles;
    }

    /** The handles of the index entries whose leading columns hold one of the tuples, in the tuples' order. */
    private Set<Handle> indexHandles(Transaction transaction, List<List<Object>> tuples) {
        Set<Handle> handles = new LinkedHashSet<>();
        for (List<Object> tuple : tuples) {
            byte[] prefix = prefix(tuple);
            access.forEachIndexPage(transaction, index, prefix, Keys.indexValuesEnd(prefix), SCAN_PAGE, handles::addAll);
        }
        return handles;
    }

    /** The rows of a common-handle table whose clustered key starts with one of the tuples: a record scan each. */
    private void clusteredPrefixRows(Transaction transaction, List<List<Object>> tuples, RowExpression filter,
            List<RowExpression> outputs, List<Object[]> rows) {
        for (List<Object> tuple : tuples) {
            byte[] from = access.recordValuesPrefix(tuple);
            byte[] end = Keys.indexValuesEnd(from);
            while (true) {
                List<Map.Entry<ByteString, byte[]>> page = transaction.scan(from, end, SCAN_PAGE);
                page.forEach(entry -> accept(entry.getValue(), filter, outputs, rows));
                if (page.size() < SCAN_PAGE) {
                    break;
                }
                byte[] last = page.get(page.size() - 1).getKey().toByteArray();
                from = java.util.Arrays.copyOf(last, last.length + 1);
            }
        }
    }

    private void fetch(Transaction transaction, List<byte[]> keys, RowExpression filter, List<RowExpression> outputs,
            List<Object[]> rows) {
        Map<ByteString, byte[]> values = transaction.batchGet(keys);
        for (byte[] rowKey : keys) {
            byte[] value = values.get(ByteString.copyFrom(rowKey));
            if (value != null) {
                accept(value, filter, outputs, rows);
            }
        }
    }

    /** Adds a stored row, in the inner side's output columns, when it passes the inner filter. */
    private void accept(byte[] value, RowExpression filter, List<RowExpression> outputs, List<Object[]> rows) {
        Object[] row = access.publicValues(access.decode(value));
        if (filter != null && !Boolean.TRUE.equals(Values.truth(filter.evaluate(row)))) {
            return;
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
