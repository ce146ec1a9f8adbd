package io.duetdb.sql.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;

import org.apache.calcite.rex.RexNode;

import com.google.protobuf.ByteString;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.keys.Handle;
import io.duetdb.common.keys.Keys;
import io.duetdb.sql.prepare.KeyPoints;

/**
 * Reads a table's rows in a transaction by the cheapest path its condition allows: point gets of handles when
 * the clustered key is fixed, a unique-index lookup when a unique key is fixed, a range of the records when the
 * clustered key's first columns are fixed or bounded, else an index range or a scan of the table's records. The
 * condition (over the public columns) is applied to every row read. Locking reads (FOR UPDATE, and the rows of
 * UPDATE and DELETE) lock each matching row and re-check the condition on its latest version.
 */
public final class TableReader {
    private static final int SCAN_PAGE = 256;

    /** A row read: its handle and all its columns. */
    public record HandleRow(Handle handle, Object[] row) {
    }

    private final Transaction transaction;
    private final TableAccess access;
    private final RowExpression condition;
    private final boolean locking;
    private final List<Handle> pointHandles;
    private final IndexInfo uniqueIndex;
    /** The unique index's rows to look up (full rows with the index columns set), in index key order. */
    private final List<Object[]> uniqueIndexRows;
    private IndexInfo rangeIndex;
    /** How many of the range index's first columns the condition fixes by equalities. */
    private int rangePrefixLength;
    private byte[] rangeStart;
    private byte[] rangeEnd;
    /** Record keys [start, end) of a clustered key range, when the condition limits the clustered key; else null. */
    private byte[] clusteredStart;
    private byte[] clusteredEnd;
    /** How many of the clustered key's first columns the range's equalities fix. */
    private int clusteredPrefixLength;
    /** The rows and cost estimated for this path, when costs chose it. */
    private PathEstimate estimate;
    /** The path the costs chose this one over. */
    private TableReader rejected;
    /** An index path whose entries hold every column the consumer needs: no rows are read. */
    private boolean covering;
    /** A locking read that leaves out the rows (and index entries) other transactions hold locked. */
    private boolean skipLocked;
    /** The conjuncts that bound a clustered key range (none for a whole-table scan), for estimates of its rows. */
    private List<RexNode> rangeConjuncts = List.of();

    /** A path's estimated rows read and its cost by {@link ScanCostModel}. */
    private record PathEstimate(double rows, double cost) {
    }

    private TableReader(Transaction transaction, TableAccess access, RowExpression condition, boolean locking,
            List<Handle> pointHandles, IndexInfo uniqueIndex, List<Object[]> uniqueIndexRows) {
        this.transaction = transaction;
        this.access = access;
        this.condition = condition;
        this.locking = locking;
        this.pointHandles = pointHandles;
        this.uniqueIndex = uniqueIndex;
        this.uniqueIndexRows = uniqueIndexRows;
    }

    /** Reads through the entries of {@code index} whose leading values are fixed (then the rows they name). */
    private TableReader withIndexPrefix(IndexInfo index, int prefixLength, byte[] start, byte[] end) {
        this.rangeIndex = index;
        this.rangePrefixLength = prefixLength;
        this.rangeStart = start;
        this.rangeEnd = end;
        return this;
    }

    /** Reads the integer handles in [low, high] (none when low > high). */
    private TableReader withHandleRange(long low, long high) {
        this.clusteredStart = low == Long.MIN_VALUE ? access.recordStart() : access.rowKey(low);
        this.clusteredEnd = low > high ? clusteredStart
                : high == Long.MAX_VALUE ? access.recordEnd() : access.rowKey(high + 1);
        return this;
    }

    /** Reads the records [start, end) of a clustered key whose first {@code prefixLength} columns are fixed. */
    private TableReader withRecordRange(byte[] start, byte[] end, int prefixLength) {
        this.clusteredStart = start;
        this.clusteredEnd = end;
        this.clusteredPrefixLength = prefixLength;
        return this;
    }

    /** A reader for rows satisfying {@code conditionNode} (null for all rows), its path chosen by rule. */
    public static TableReader create(Transaction transaction, TableAccess access, RexNode conditionNode,
            ExpressionCompiler compiler, boolean locking) {
        return create(transaction, access, conditionNode, compiler, locking, null);
    }

    /**
     * A reader for rows satisfying {@code conditionNode} (null for all rows). Point gets and unique lookups go
     * first; between a scan of the records (or of a clustered key range) and an index range with its double
     * read, the cheaper by {@link ScanCostModel} wins when {@code estimator} has statistics, else the rule does:
     * a clustered key range, then an index range, then a table scan.
     */
    static TableReader create(Transaction transaction, TableAccess access, RexNode conditionNode,
            ExpressionCompiler compiler, boolean locking, AccessPathEstimator estimator) {
        RowExpression condition = conditionNode == null ? null : compiler.compile(conditionNode);
        RowExpression publicCondition = condition == null ? null : row -> condition.evaluate(access.publicValues(row));
        ReadEngines engines = ReadEngines.of(compiler.session(), access.table());
        // Column learners keep rows, not indexes: a scan of the table's records (or of a clustered key range) is
        // their one path.
        boolean recordsOnly = !locking && !engines.rowStore();
        if (recordsOnly) {
            engines.checkReadable(access.table(), String.valueOf(compiler.session().systemVariable("",
                    ReadEngines.VARIABLE)));
        }
        if (conditionNode == null) {
            return new TableReader(transaction, access, null, locking, null, null, null);
        }
        List<ColumnInfo> publicColumns = access.table().publicColumns();
        List<RexNode> conjuncts = org.apache.calcite.plan.RelOptUtil.conjunctions(
                SearchExpansion.expand(compiler.rexBuilder(), conditionNode));
        // Equalities column = constant, by public column position.
        Map<Integer, Object> fixed = new HashMap<>();
        for (RexNode conjunct : conjuncts) {
            Optional<Map.Entry<Integer, RexNode>> equality = KeyPoints.equality(conjunct);
            equality.ifPresent(found -> fixed.put(found.getKey(), evaluate(found.getValue(), compiler)));
        }
        KeyPoints points = KeyPoints.of(conjuncts);
        String handleColumn = access.table().handleColumn();
        TableReader handleRangePath = null;
        List<RexNode> handleConjuncts = new ArrayList<>();
        // Equalities the clustered key range fixes; an integer handle's range is preferred to any index by rule.
        int clusteredFixed = Integer.MAX_VALUE;
        if (handleColumn != null) {
            int position = publicPosition(publicColumns, handleColumn);
            if (position >= 0 && points.assignAll(List.of(position))) {
                List<Object> values = new ArrayList<>();
                points.points().forEach(point -> values.add(evaluate(point.get(position), compiler)));
                List<Long> handles = handles(values, publicColumns.get(position));
                if (recordsOnly) {
                    return new TableReader(transaction, access, publicCondition, locking, null, null, null)
                            .withHandleRange(handles.isEmpty() ? 1 : Collections.min(handles),
                                    handles.isEmpty() ? 0 : Collections.max(handles));
                }
                return new TableReader(transaction, access, publicCondition, locking,
                        handles.stream().map(Handle::of).toList(), null, null);
            }
            long[] range = position < 0 ? null : handleRange(conjuncts, position, publicColumns.get(position), compiler);
            if (range != null) {
                handleRangePath = new TableReader(transaction, access, publicCondition, locking, null, null, null)
                        .withHandleRange(range[0], range[1]);
                for (RexNode conjunct : conjuncts) {
                    if (!KeyPrefix.comparisons(List.of(conjunct), position, compiler).isEmpty()) {
                        handleConjuncts.add(conjunct);
                    }
                }
            }
        }
        IndexInfo clusteredKey = access.commonHandleKey();
        if (clusteredKey != null) {
            List<Integer> positions = clusteredKey.columns().stream()
                    .map(column -> publicPosition(publicColumns, column)).toList();
            if (!recordsOnly && !positions.contains(-1) && points.assignAll(positions)) {
                List<Handle> handles = uniqueIndexRows(access, clusteredKey, positions, points, compiler).stream()
                        .map(access::handleOf).toList();
                return new TableReader(transaction, access, publicCondition, locking, handles, null, null);
            }
            KeyPrefix prefix = KeyPrefix.of(clusteredKey, fixed, conjuncts, access, compiler);
            if (!prefix.isEmpty()) {
                byte[][] range = prefix.range(access.recordValuesPrefix(prefix.values()), access::recordValuesPrefix);
                handleRangePath = new TableReader(transaction, access, publicCondition, locking, null, null, null)
                        .withRecordRange(range[0], range[1], prefix.values().size());
                handleConjuncts.addAll(prefix.conjuncts(clusteredKey, conjuncts, publicColumns, compiler));
                clusteredFixed = prefix.values().size();
            }
        }
        if (handleRangePath != null) {
            handleRangePath.rangeConjuncts = handleConjuncts;
        }
        if (handleRangePath != null && (estimator == null && clusteredFixed == Integer.MAX_VALUE || recordsOnly)) {
            return handleRangePath;
        }
        if (recordsOnly) {
            return new TableReader(transaction, access, publicCondition, locking, null, null, null);
        }
        boolean clusteredPrimaryKey = access.table().hasClusteredPrimaryKey();
        for (IndexInfo index : access.table().indexes()) {
            if (!index.unique() || index.state() != SchemaState.PUBLIC || (index.primary() && clusteredPrimaryKey)) {
                continue;
            }
            List<Integer> positions = index.columns().stream().map(column -> publicPosition(publicColumns, column)).toList();
            if (positions.contains(-1) || !points.assignAll(positions)) {
                continue;
            }
            List<Object[]> rows = uniqueIndexRows(access, index, positions, points, compiler);
            return new TableReader(transaction, access, publicCondition, locking, null, index, rows);
        }
        // The index with the longest leading run of columns fixed by equalities (and then, on its next column, the
        // bounds that comparisons set): read those entries, then the rows.
        IndexInfo best = null;
        KeyPrefix bestPrefix = null;
        for (IndexInfo index : access.table().indexes()) {
            if (index.state() != SchemaState.PUBLIC || (index.primary() && clusteredPrimaryKey)) {
                continue;
            }
            KeyPrefix prefix = KeyPrefix.of(index, fixed, conjuncts, access, compiler);
            boolean better = best == null || prefix.values().size() > bestPrefix.values().size()
                    || prefix.values().size() == bestPrefix.values().size() && prefix.bounds() != null
                    && bestPrefix.bounds() == null;
            if (!prefix.isEmpty() && better) {
                best = index;
                bestPrefix = prefix;
            }
        }
        TableReader rowPath = handleRangePath != null ? handleRangePath
                : new TableReader(transaction, access, publicCondition, locking, null, null, null);
        if (best != null) {
            IndexInfo index = best;
            byte[][] range = bestPrefix.range(Keys.indexValuesPrefix(access.table().id(), index.id(),
                    access.indexTypes(index).subList(0, bestPrefix.values().size()), bestPrefix.values()),
                    bounds -> Keys.indexValuesPrefix(access.table().id(), index.id(),
                            access.indexTypes(index).subList(0, bounds.size()), bounds));
            byte[] start = range[0];
            byte[] end = range[1];
            TableReader indexPath = new TableReader(transaction, access, publicCondition, locking, null, null, null)
                    .withIndexPrefix(best, bestPrefix.values().size(), start, end);
            if (estimator == null || estimator.rows().isEmpty()) {
                // By rule: the index's range, read from its entries alone when they hold what the consumer uses;
                // a clustered key range instead when its equalities fix as many columns.
                indexPath.covering = estimator != null && estimator.covers(best);
                return handleRangePath != null && clusteredFixed >= bestPrefix.values().size() ? handleRangePath
                        : indexPath;
            }
            List<RexNode> indexConjuncts = bestPrefix.conjuncts(best, conjuncts, publicColumns, compiler);
            return cheaper(estimator, rowPath, handleConjuncts, indexPath, indexConjuncts);
        }
        return rowPath;
    }

    /** Equation (1) between the two paths the condition allows: the row scan and the index range with its double read. */
    private static TableReader cheaper(AccessPathEstimator estimator, TableReader rowPath, List<RexNode> rowConjuncts,
            TableReader indexPath, List<RexNode> indexConjuncts) {
        ScanCostModel model = estimator.model();
        long rows = estimator.rows().getAsLong();
        double tupleBytes = estimator.tupleBytes();
        byte[][] rowRange = rowPath.recordRange();
        double rowTuples = rowConjuncts.isEmpty() ? rows : estimator.rowsMatching(rows, rowConjuncts);
        double rowCost = model.rowScan(tupleBytes, rowTuples, estimator.regions(rowRange[0], rowRange[1]));
        double indexTuples = estimator.rowsMatching(rows, indexConjuncts);
        boolean covering = estimator.covers(indexPath.rangeIndex);
        double indexCost = model.indexScan(estimator.indexEntryBytes(indexPath.rangeIndex), indexTuples,
                estimator.regions(indexPath.rangeStart, indexPath.rangeEnd),
                covering ? 0 : model.doubleRead(tupleBytes, indexTuples));
        indexPath.covering = covering;
        rowPath.estimate = new PathEstimate(rowTuples, rowCost);
        indexPath.estimate = new PathEstimate(indexTuples, indexCost);
        if (indexCost < rowCost) {
            indexPath.rejected = rowPath;
            return indexPath;
        }
        rowPath.rejected = indexPath;
        return rowPath;
    }

    private static Object evaluate(RexNode constant, ExpressionCompiler compiler) {
        return compiler.compile(constant).evaluate(new Object[0]);
    }

    /**
     * The unique index's full rows (index columns set, in storage form) for each point, distinct and in index key
     * order; a point whose value cannot be stored in its column (out of range, or 1.5 for an integer) matches no row.
     */
    private static List<Object[]> uniqueIndexRows(TableAccess access, IndexInfo index, List<Integer> positions,
            KeyPoints points, ExpressionCompiler compiler) {
        TreeMap<byte[], Object[]> rows = new TreeMap<>(Arrays::compareUnsigned);
        for (Map<Integer, RexNode> point : points.points()) {
            Object[] row = new Object[access.table().columns().size()];
            boolean matchable = true;
            for (int i = 0; i < positions.size() && matchable; i++) {
                int full = access.columnIndex(index.columns().get(i));
                ColumnInfo column = access.table().columns().get(full);
                Object value = evaluate(point.get(positions.get(i)), compiler);
                try {
                    Object coerced = value == null ? null : Coercion.toColumn(value, column);
                    matchable = coerced != null && (!Values.isNumber(coerced) || Values.compare(coerced, value) == 0);
                    row[full] = coerced;
                } catch (DuetException e) {
                    matchable = false;
                }
            }
            if (matchable) {
                rows.putIfAbsent(access.indexKey(index, row, Handle.of(0)), row);
            }
        }
        return List.copyOf(rows.values());
    }

    private static int publicPosition(List<ColumnInfo> publicColumns, String name) {
        for (int i = 0; i < publicColumns.size(); i++) {
            if (publicColumns.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The inclusive handle bounds that comparisons of the (signed integer) handle column with constants set, or
     * null when none does. The condition is still checked on every row read.
     */
    private static long[] handleRange(List<RexNode> conjuncts, int column, ColumnInfo info, ExpressionCompiler compiler) {
        if (info.type().unsigned()) {
            return null;
        }
        java.math.BigDecimal low = null;
        java.math.BigDecimal high = null;
        for (KeyPrefix.Comparison comparison : KeyPrefix.comparisons(conjuncts, column, compiler)) {
            if (!Values.isNumber(comparison.value())) {
                continue;
            }
            java.math.BigDecimal bound = Values.toDecimal(comparison.value());
            switch (comparison.kind()) {
                case GREATER_THAN -> low = max(low, bound.setScale(0, java.math.RoundingMode.FLOOR).add(java.math.BigDecimal.ONE));
                case GREATER_THAN_OR_EQUAL -> low = max(low, bound.setScale(0, java.math.RoundingMode.CEILING));
                case LESS_THAN -> high = min(high, bound.setScale(0, java.math.RoundingMode.CEILING).subtract(java.math.BigDecimal.ONE));
                default -> high = min(high, bound.setScale(0, java.math.RoundingMode.FLOOR));
            }
        }
        if (low == null && high == null) {
            return null;
        }
        java.math.BigDecimal minimum = java.math.BigDecimal.valueOf(Long.MIN_VALUE);
        java.math.BigDecimal maximum = java.math.BigDecimal.valueOf(Long.MAX_VALUE);
        long from = low == null || low.compareTo(minimum) < 0 ? Long.MIN_VALUE
                : low.compareTo(maximum) > 0 ? Long.MAX_VALUE : low.longValueExact();
        long to = high == null || high.compareTo(maximum) > 0 ? Long.MAX_VALUE
                : high.compareTo(minimum) < 0 ? Long.MIN_VALUE : high.longValueExact();
        if (low != null && low.compareTo(maximum) > 0 || high != null && high.compareTo(minimum) < 0) {
            // Nothing can match: an empty range.
            return new long[] {1, 0};
        }
        return new long[] {from, to};
    }

    private static java.math.BigDecimal max(java.math.BigDecimal current, java.math.BigDecimal candidate) {
        return current == null || candidate.compareTo(current) > 0 ? candidate : current;
    }

    private static java.math.BigDecimal min(java.math.BigDecimal current, java.math.BigDecimal candidate) {
        return current == null || candidate.compareTo(current) < 0 ? candidate : current;
    }

    private static List<Long> handles(List<Object> values, ColumnInfo column) {
        List<Long> handles = new ArrayList<>();
        for (Object value : values) {
            if (value == null) {
                continue;
            }
            try {
                Object coerced = Coercion.toColumn(value, column);
                if (Values.compare(coerced, value) != 0) {
                    continue; // 1.5 can equal no integer key
                }
                handles.add(Values.toLong(coerced));
            } catch (DuetException e) {
                // Out of the column's range: no row can match this value.
            }
        }
        return handles;
    }

    public String describePath() {
        if (estimate == null) {
            return pathName();
        }
        return String.format(java.util.Locale.ROOT, "%s (est. %.0f rows, cost %.4g; %s: cost %.4g)", pathName(),
                estimate.rows(), estimate.cost(), rejected.pathName(), rejected.estimate.cost());
    }

    /**
     * The records a scan by this path reads (the table's, or its clustered key range's), estimated from ANALYZE's
     * figures; empty without them, and for point gets and index paths.
     */
    OptionalDouble scannedRecords(AccessPathEstimator estimator) {
        if (recordRange() == null || estimator == null || estimator.rows().isEmpty()) {
            return OptionalDouble.empty();
        }
        long rows = estimator.rows().getAsLong();
        return OptionalDouble.of(rangeConjuncts.isEmpty() ? rows : estimator.rowsMatching(rows, rangeConjuncts));
    }

    /**
     * The estimated cost of an index range (with its double read unless the index covers the consumer), when the
     * costs chose it over a scan of the records; empty for other paths and when the rule chose.
     */
    OptionalDouble indexRangeCost() {
        return rangeIndex == null || estimate == null ? OptionalDouble.empty() : OptionalDouble.of(estimate.cost());
    }

    /** The index an index range reads; null for other paths. */
    IndexInfo rangeIndex() {
        return rangeIndex;
    }

    /** What the costs chose, for EXPLAIN beside a pushed scan; empty when the rule chose. */
    public String costNote() {
        return estimate == null ? "" : String.format(java.util.Locale.ROOT, "%s: est. cost %.4g, cheaper than %s (%.4g)",
                pathName(), estimate.cost(), rejected.pathName(), rejected.estimate.cost());
    }

    /** TiDB's name for this path's operator: Point_Get and Batch_Point_Get for key lookups, else TableReader. */
    public String operatorName() {
        int points = pointHandles != null ? pointHandles.size() : uniqueIndex != null ? uniqueIndexRows.size() : -1;
        return points < 0 ? "TableReader" : points == 1 ? "Point_Get" : "Batch_Point_Get";
    }

    /** The table, and for key lookups the key they read: {@code table:t, index:PRIMARY(a, b)} or {@code handle:id}. */
    public String accessObject() {
        String table = "table:" + access.table().name();
        if (pointHandles != null) {
            return access.commonHandleKey() != null ? table + ", clustered index:PRIMARY("
                    + String.join(", ", access.commonHandleKey().columns()) + ")"
                    : table + ", handle:" + access.table().handleColumn();
        }
        if (uniqueIndex != null) {
            return table + ", index:" + uniqueIndex.name() + "(" + String.join(", ", uniqueIndex.columns()) + ")";
        }
        return table;
    }

    private String pathName() {
        if (pointHandles != null) {
            return "point get of " + pointHandles.size() + " handle(s)";
        }
        if (uniqueIndex != null) {
            return "unique index " + uniqueIndex.name() + " lookup"
                    + (uniqueIndexRows.size() == 1 ? "" : " of " + uniqueIndexRows.size() + " key(s)");
        }
        if (rangeIndex != null) {
            return "index " + rangeIndex.name() + (covering ? " range, covering (no rows read)" : " range, then rows");
        }
        if (clusteredStart != null) {
            return "clustered key range";
        }
        return "table scan";
    }

    /**
     * The record keys [start, end) this reader scans when its path is a table scan or a clustered key range; null
     * for point gets and index paths. An empty range is [start, start).
     */
    public byte[][] recordRange() {
        if (pointHandles != null || uniqueIndex != null || rangeIndex != null) {
            return null;
        }
        if (clusteredStart != null) {
            return new byte[][] {clusteredStart, clusteredEnd};
        }
        return new byte[][] {access.recordStart(), access.recordEnd()};
    }

    /**
     * The index whose entries alone answer the consumer (the costs chose its range and it holds every column the
     * consumer needs), or null; {@link #indexRange} bounds the entries to read. {@link #read} still reads rows.
     */
    IndexInfo coveringIndex() {
        return covering ? rangeIndex : null;
    }

    /** The index entries [start, end) an index path reads; null for other paths. */
    byte[][] indexRange() {
        return rangeIndex == null ? null : new byte[][] {rangeStart, rangeEnd};
    }

    /** Leaves out, instead of waiting for, the rows other transactions hold locked (FOR UPDATE SKIP LOCKED). */
    void skipLocked() {
        if (!locking) {
            throw new IllegalStateException("only a locking read skips locked rows");
        }
        this.skipLocked = true;
    }

    /** Every matching row with its handle. */
    public List<HandleRow> read() {
        List<HandleRow> rows = new ArrayList<>();
        if (pointHandles != null) {
            readHandles(pointHandles.stream().distinct().sorted().toList(), rows);
            return rows;
        }
        if (uniqueIndex != null) {
            List<byte[]> indexKeys = uniqueIndexRows.stream()
                    .map(row -> access.indexKey(uniqueIndex, row, Handle.of(0))).toList();
            Map<ByteString, byte[]> entries = read(indexKeys);
            List<Handle> handles = new ArrayList<>(entries.size());
            for (byte[] key : indexKeys) {
                byte[] entry = entries.get(ByteString.copyFrom(key));
                if (entry != null) {
                    handles.add(access.handleOfValue(entry));
                }
            }
            readHandles(handles, rows);
            return rows;
        }
        if (rangeIndex != null) {
            access.forEachIndexPage(transaction, rangeIndex, rangeStart, rangeEnd, SCAN_PAGE,
                    handles -> readHandles(handles, rows));
            return rows;
        }
        byte[][] range = recordRange();
        byte[] start = range[0];
        byte[] end = range[1];
        if (Arrays.compareUnsigned(start, end) >= 0) {
            return rows;
        }
        while (true) {
            List<Map.Entry<ByteString, byte[]>> page = transaction.scan(start, end, SCAN_PAGE);
            List<Handle> toLock = new ArrayList<>();
            for (Map.Entry<ByteString, byte[]> entry : page) {
                Handle handle = access.handleOfRecordKey(entry.getKey().toByteArray());
                Object[] row = access.decode(entry.getValue());
                if (!matches(row)) {
                    continue;
                }
                if (locking) {
                    toLock.add(handle);
                } else {
                    rows.add(new HandleRow(handle, row));
                }
            }
            // A locking scan locks the rows that matched at its snapshot and tests their latest versions again.
            readHandles(toLock, rows);
            if (page.size() < SCAN_PAGE) {
                return rows;
            }
            byte[] last = page.get(page.size() - 1).getKey().toByteArray();
            start = Arrays.copyOf(last, last.length + 1);
        }
    }

    /**
     * Whether this reader gives its rows in ascending order of these public columns: the clustered key for a scan
     * of the records, or an index range's columns after those its equalities fix.
     */
    boolean ascendsBy(List<Integer> positions) {
        if (positions.isEmpty() || pointHandles != null || uniqueIndex != null) {
            return false;
        }
        List<ColumnInfo> publicColumns = access.table().publicColumns();
        List<String> order;
        if (rangeIndex != null) {
            order = rangeIndex.columns().subList(rangePrefixLength, rangeIndex.columns().size());
        } else if (access.table().handleColumn() != null) {
            order = List.of(access.table().handleColumn());
        } else if (access.commonHandleKey() != null) {
            List<String> key = access.commonHandleKey().columns();
            order = key.subList(Math.min(clusteredPrefixLength, key.size()), key.size());
        } else {
            return false;
        }
        if (positions.size() > order.size()) {
            return false;
        }
        for (int i = 0; i < positions.size(); i++) {
            if (!publicColumns.get(positions.get(i)).name().equalsIgnoreCase(order.get(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The first {@code limit} matching rows in the order {@link #ascendsBy} tells. A locking read locks only those
     * (and rows that matched at the snapshot but no longer do once locked): an ORDER BY ... LIMIT 1 FOR UPDATE, such
     * as TPC-C's Delivery, locked every row of its range before.
     */
    List<HandleRow> readFirst(long limit) {
        List<HandleRow> rows = new ArrayList<>();
        if (limit <= 0) {
            return rows;
        }
        int page = (int) Math.min(SCAN_PAGE, Math.max(8, limit));
        if (rangeIndex != null) {
            access.forEachIndexPageWhile(transaction, rangeIndex, rangeStart, rangeEnd, page, handles -> {
                lockFirst(snapshotMatches(handles), limit, rows);
                return rows.size() < limit;
            });
            return rows;
        }
        byte[][] range = recordRange();
        byte[] start = range[0];
        while (Arrays.compareUnsigned(start, range[1]) < 0) {
            List<Map.Entry<ByteString, byte[]>> entries = transaction.scan(start, range[1], page);
            List<Handle> matching = new ArrayList<>();
            for (Map.Entry<ByteString, byte[]> entry : entries) {
                if (matches(access.decode(entry.getValue()))) {
                    matching.add(access.handleOfRecordKey(entry.getKey().toByteArray()));
                }
            }
            lockFirst(matching, limit, rows);
            if (rows.size() >= limit || entries.size() < page) {
                return rows;
            }
            byte[] last = entries.get(entries.size() - 1).getKey().toByteArray();
            start = Arrays.copyOf(last, last.length + 1);
        }
        return rows;
    }

    /** The handles whose rows match at the snapshot (read without locks), in their order. */
    private List<Handle> snapshotMatches(List<Handle> handles) {
        if (!locking) {
            return handles;
        }
        List<byte[]> keys = handles.stream().map(access::rowKey).toList();
        Map<ByteString, byte[]> values = keys.isEmpty() ? Map.of() : transaction.batchGet(keys);
        List<Handle> matching = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            byte[] value = values.get(ByteString.copyFrom(keys.get(i)));
            if (value != null && matches(access.decode(value))) {
                matching.add(handles.get(i));
            }
        }
        return matching;
    }

    /** Reads (locking reads: locks) candidates in order, a few at a time, until {@code limit} rows match. */
    private void lockFirst(List<Handle> candidates, long limit, List<HandleRow> rows) {
        int next = 0;
        while (next < candidates.size() && rows.size() < limit) {
            int take = (int) Math.min(candidates.size() - next, limit - rows.size());
            readHandles(candidates.subList(next, next + take), rows);
            next += take;
        }
    }

    /** Reads (locking reads: locks, then reads the latest versions of) keys, one request per region. */
    private Map<ByteString, byte[]> read(List<byte[]> keys) {
        if (keys.isEmpty()) {
            return Map.of();
        }
        if (skipLocked) {
            return transaction.getForUpdateSkipLocked(keys).values();
        }
        if (keys.size() == 1) {
            Optional<byte[]> value = locking ? transaction.getForUpdate(keys.get(0)) : transaction.get(keys.get(0));
            return value.map(found -> Map.of(ByteString.copyFrom(keys.get(0)), found)).orElse(Map.of());
        }
        return locking ? transaction.getForUpdateAll(keys) : transaction.batchGet(keys);
    }

    /** The rows of those handles that exist and match, in the handles' order: one batch get per region. */
    private void readHandles(List<Handle> handles, List<HandleRow> rows) {
        List<byte[]> keys = new ArrayList<>(handles.size());
        handles.forEach(handle -> keys.add(access.rowKey(handle)));
        Map<ByteString, byte[]> values = read(keys);
        for (int i = 0; i < keys.size(); i++) {
            byte[] value = values.get(ByteString.copyFrom(keys.get(i)));
            if (value != null) {
                Object[] row = access.decode(value);
                if (matches(row)) {
                    rows.add(new HandleRow(handles.get(i), row));
                }
            }
        }
    }

    private boolean matches(Object[] row) {
        return condition == null || Boolean.TRUE.equals(Values.truth(condition.evaluate(row)));
    }
}
