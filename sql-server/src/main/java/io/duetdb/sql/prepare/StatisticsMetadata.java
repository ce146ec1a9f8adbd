package io.duetdb.sql.prepare;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.JaninoRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.TimestampString;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.IndexInfo;

/**
 * Calcite metadata from ANALYZE's statistics (Calcite's defaults guess a fixed fraction per predicate and know
 * nothing of distinct values): the selectivity of comparisons of a table's columns with constants, and the
 * distinct values of its columns. Everything else, and tables without statistics, keep Calcite's handlers.
 */
public final class StatisticsMetadata {
    /** The metadata DuetDB plans with: these handlers first, then Calcite's. */
    static final JaninoRelMetadataProvider PROVIDER = JaninoRelMetadataProvider.of(ChainedRelMetadataProvider.of(List.of(
            ReflectiveRelMetadataProvider.reflectiveSource(new Selectivity(), BuiltInMetadata.Selectivity.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(new DistinctRowCount(),
                    BuiltInMetadata.DistinctRowCount.Handler.class),
            DefaultRelMetadataProvider.INSTANCE)));

    private StatisticsMetadata() {
    }

    static RelMetadataQuery query() {
        return new RelMetadataQuery(PROVIDER);
    }

    /** Selectivity of a predicate over a table scan. */
    public static final class Selectivity implements MetadataHandler<BuiltInMetadata.Selectivity> {
        @Override
        public MetadataDef<BuiltInMetadata.Selectivity> getDef() {
            return BuiltInMetadata.Selectivity.DEF;
        }

        public Double getSelectivity(TableScan scan, RelMetadataQuery metadata, RexNode predicate) {
            return selectivity(scan, predicate);
        }

        /**
         * A join on equalities of left and right columns keeps one pair in the larger of the distinct counts of its
         * most selective equality (the textbook containment estimate). Further equalities are taken as correlated
         * with it, not independent: multiplying them made lineitem joined with partsupp on both keys look 2,500
         * times smaller than it is. When one side's join columns are unique, no row of the other side matches more
         * than once, which bounds the estimate too. Calcite guesses 15% per equality instead.
         */
        public Double getSelectivity(Join join, RelMetadataQuery metadata, RexNode predicate) {
            // Janino's dispatch does not fall through to Calcite's handler: what this one does not price, it
            // prices as Calcite does.
            if (predicate == null) {
                return 1.0;
            }
            if (join.isSemiJoin()) {
                RexNode semiJoin = RelMdUtil.makeSemiJoinSelectivityRexNode(metadata, join);
                return metadata.getSelectivity(join.getLeft(), RexUtil.composeConjunction(
                        join.getCluster().getRexBuilder(), List.of(semiJoin, predicate)));
            }
            int leftCount = join.getLeft().getRowType().getFieldCount();
            double others = 1;
            double equalities = 1;
            ImmutableBitSet.Builder leftKeys = ImmutableBitSet.builder();
            ImmutableBitSet.Builder rightKeys = ImmutableBitSet.builder();
            for (RexNode conjunct : RelOptUtil.conjunctions(predicate)) {
                Double equality = equiJoinSelectivity(join, metadata, conjunct, leftCount, leftKeys, rightKeys);
                if (equality != null) {
                    equalities = Math.min(equalities, equality);
                } else {
                    others *= RelMdUtil.guessSelectivity(conjunct);
                }
            }
            if (equalities < 1) {
                equalities = Math.min(equalities, uniqueBound(metadata, join.getLeft(), leftKeys.build()));
                equalities = Math.min(equalities, uniqueBound(metadata, join.getRight(), rightKeys.build()));
            }
            return equalities * others;
        }

        /** 1 / rows of {@code side} when its {@code keys} are unique (each row of the other side matches at most one). */
        private static double uniqueBound(RelMetadataQuery metadata, RelNode side, ImmutableBitSet keys) {
            if (keys.isEmpty() || !Boolean.TRUE.equals(metadata.areColumnsUnique(side, keys))) {
                return 1;
            }
            Double rows = metadata.getRowCount(side);
            return rows == null ? 1 : 1 / Math.max(1, rows);
        }

        private static Double equiJoinSelectivity(Join join, RelMetadataQuery metadata, RexNode conjunct, int leftCount,
                ImmutableBitSet.Builder leftKeys, ImmutableBitSet.Builder rightKeys) {
            if (conjunct.getKind() != SqlKind.EQUALS
                    || !(RexUtil.removeCast(((RexCall) conjunct).getOperands().get(0)) instanceof RexInputRef first)
                    || !(RexUtil.removeCast(((RexCall) conjunct).getOperands().get(1)) instanceof RexInputRef second)) {
                return null;
            }
            int left = Math.min(first.getIndex(), second.getIndex());
            int right = Math.max(first.getIndex(), second.getIndex());
            if (left >= leftCount || right < leftCount) {
                return null;
            }
            Double leftDistinct = metadata.getDistinctRowCount(join.getLeft(), ImmutableBitSet.of(left), null);
            Double rightDistinct = metadata.getDistinctRowCount(join.getRight(), ImmutableBitSet.of(right - leftCount), null);
            if (leftDistinct == null || rightDistinct == null) {
                return null;
            }
            leftKeys.set(left);
            rightKeys.set(right - leftCount);
            return 1 / Math.max(1, Math.max(leftDistinct, rightDistinct));
        }
    }

    /** Distinct values of columns of a table scan. */
    public static final class DistinctRowCount implements MetadataHandler<BuiltInMetadata.DistinctRowCount> {
        @Override
        public MetadataDef<BuiltInMetadata.DistinctRowCount> getDef() {
            return BuiltInMetadata.DistinctRowCount.DEF;
        }

        public Double getDistinctRowCount(TableScan scan, RelMetadataQuery metadata, ImmutableBitSet groupKey,
                RexNode predicate) {
            double rows = metadata.getRowCount(scan) * selectivity(scan, predicate);
            if (groupKey.isEmpty()) {
                return 1.0;
            }
            Boolean unique = metadata.areColumnsUnique(scan, groupKey);
            if (Boolean.TRUE.equals(unique)) {
                return rows;
            }
            DuetTable table = scan.getTable().unwrap(DuetTable.class);
            if (table == null) {
                return null;
            }
            List<ColumnInfo> columns = table.table().publicColumns();
            double distinct = 1;
            for (int index : groupKey) {
                OptionalLong count = index < columns.size()
                        ? table.statistics().distinctCount(table.table().id(), columns.get(index).id()) : OptionalLong.empty();
                if (count.isEmpty()) {
                    return null;
                }
                distinct *= count.getAsLong();
            }
            return Math.max(1, Math.min(distinct, rows));
        }
    }

    static double selectivity(TableScan scan, RexNode predicate) {
        if (predicate == null || predicate.isAlwaysTrue()) {
            return 1.0;
        }
        DuetTable table = scan.getTable().unwrap(DuetTable.class);
        if (table == null) {
            return RelMdUtil.guessSelectivity(predicate);
        }
        RexNode expanded = RexUtil.expandSearch(scan.getCluster().getRexBuilder(), null, predicate);
        List<RexNode> conjuncts = RelOptUtil.conjunctions(expanded);
        double selectivity = selectivity(table, conjuncts);
        OptionalInt points = uniqueKeyPoints(table, conjuncts);
        if (points.isPresent()) {
            // Each point of a unique key is one row at most, whatever the statistics say of its columns.
            selectivity = Math.min(selectivity, points.getAsInt() / Math.max(1, scan.getTable().getRowCount()));
        }
        return selectivity;
    }

    /**
     * The number of points the conjuncts confine the table to when every point fixes all the columns of one of its
     * unique keys (so no point matches more than one row); empty otherwise.
     */
    static OptionalInt uniqueKeyPoints(DuetTable table, List<RexNode> conjuncts) {
        KeyPoints points = KeyPoints.of(conjuncts);
        for (ImmutableBitSet key : table.getStatistic().getKeys()) {
            if (!key.isEmpty() && points.assignAll(key.asList())) {
                return OptionalInt.of(points.points().size());
            }
        }
        return OptionalInt.empty();
    }

    /**
     * The fraction of the table's rows that satisfy all of {@code conjuncts} (over its public columns, SEARCH
     * expanded), taking them as independent; Calcite's guess for a conjunct the statistics cannot price.
     */
    public static double selectivity(DuetTable table, List<RexNode> conjuncts) {
        // Equalities on an analyzed index's first columns: the columns are often correlated (a city and its zip
        // code), so their tuples' distinct count prices them together rather than a product of the columns'.
        java.util.Map<Integer, RexNode> equalities = new java.util.LinkedHashMap<>();
        for (RexNode conjunct : conjuncts) {
            Integer columnId = equalityColumn(table, conjunct);
            if (columnId != null) {
                equalities.putIfAbsent(columnId, conjunct);
            }
        }
        List<RexNode> rest = new java.util.ArrayList<>(conjuncts);
        double product = 1;
        IndexRange range = indexRange(table, equalities, conjuncts);
        java.util.Set<Integer> covered = range != null ? java.util.Set.of() : largestIndexPrefix(table, equalities.keySet());
        if (range != null) {
            product = range.fraction();
            rest.removeAll(range.conjuncts());
        } else if (covered.size() >= 2) {
            // A frequent tuple (ANALYZE's top tuples of the prefix) by its own count, else the tuples' distinct count.
            java.util.Map<Integer, Object> values = new java.util.HashMap<>();
            for (Integer columnId : covered) {
                Object value = equalityValue(equalities.get(columnId));
                if (value != null) {
                    values.put(columnId, value);
                }
            }
            OptionalDouble tuple = values.size() == covered.size()
                    ? table.statistics().indexPrefixEquality(table.table().id(), values) : OptionalDouble.empty();
            product = tuple.isPresent() ? tuple.getAsDouble()
                    : 1.0 / table.statistics().indexPrefixDistinctCount(table.table().id(), covered).orElseThrow();
            covered.forEach(columnId -> rest.remove(equalities.get(columnId)));
        }
        for (RexNode conjunct : rest) {
            OptionalDouble known = conjunct(table, conjunct);
            product *= known.isPresent() ? known.getAsDouble() : RelMdUtil.guessSelectivity(conjunct);
        }
        return product;
    }

    /** Equalities on an index's first columns and a range on its next column, priced together, and the fraction. */
    private record IndexRange(List<RexNode> conjuncts, double fraction) {
    }

    /**
     * Equalities on an analyzed index's first columns (one at least) and bounds on its next column, priced together
     * from the index's histogram of tuples (a warehouse's districts by date: correlated, not independent); the
     * longest such prefix, or null when no index's histogram prices one.
     */
    private static IndexRange indexRange(DuetTable table, java.util.Map<Integer, RexNode> equalities, List<RexNode> conjuncts) {
        IndexRange best = null;
        int bestLength = 0;
        for (IndexInfo index : table.table().indexes()) {
            java.util.Map<Integer, Object> prefix = new java.util.LinkedHashMap<>();
            List<RexNode> used = new java.util.ArrayList<>();
            Integer next = null;
            for (String name : index.columns()) {
                Integer id = columnId(table, name);
                Object value = id != null && equalities.containsKey(id) ? equalityValue(equalities.get(id)) : null;
                if (value == null) {
                    next = id;
                    break;
                }
                prefix.put(id, value);
                used.add(equalities.get(id));
            }
            if (prefix.isEmpty() || next == null || prefix.size() <= bestLength) {
                continue;
            }
            Bound lower = null;
            Bound upper = null;
            for (RexNode conjunct : conjuncts) {
                Bound bound = bound(table, conjunct);
                if (bound == null || bound.columnId() != next) {
                    continue;
                }
                if (bound.lower() && lower == null) {
                    lower = bound;
                    used.add(conjunct);
                } else if (!bound.lower() && upper == null) {
                    upper = bound;
                    used.add(conjunct);
                }
            }
            if (lower == null && upper == null) {
                continue;
            }
            OptionalDouble fraction = table.statistics().indexPrefixRange(table.table().id(), prefix, next,
                    lower == null ? null : lower.value(), lower != null && lower.inclusive(),
                    upper == null ? null : upper.value(), upper != null && upper.inclusive());
            if (fraction.isPresent()) {
                best = new IndexRange(used, fraction.getAsDouble());
                bestLength = prefix.size();
            }
        }
        return best;
    }

    /** One side of a range on a column: {@code column > value} is a lower bound, {@code column <= value} an upper one. */
    private record Bound(int columnId, boolean lower, boolean inclusive, Object value) {
    }

    /** The bound a comparison of a column with a literal sets, or null for another kind of conjunct. */
    private static Bound bound(DuetTable table, RexNode node) {
        if (!(node instanceof RexCall call) || call.getOperands().size() != 2) {
            return null;
        }
        SqlKind kind = call.getKind();
        RexNode left = RexUtil.removeCast(call.getOperands().get(0));
        RexNode right = RexUtil.removeCast(call.getOperands().get(1));
        RexInputRef reference;
        RexLiteral literal;
        if (left instanceof RexInputRef l && right instanceof RexLiteral r) {
            reference = l;
            literal = r;
        } else if (right instanceof RexInputRef r && left instanceof RexLiteral l) {
            reference = r;
            literal = l;
            kind = kind.reverse();
        } else {
            return null;
        }
        List<ColumnInfo> columns = table.table().publicColumns();
        Object value = literalValue(literal);
        if (value == null || reference.getIndex() >= columns.size()) {
            return null;
        }
        int columnId = columns.get(reference.getIndex()).id();
        return switch (kind) {
            case GREATER_THAN -> new Bound(columnId, true, false, value);
            case GREATER_THAN_OR_EQUAL -> new Bound(columnId, true, true, value);
            case LESS_THAN -> new Bound(columnId, false, false, value);
            case LESS_THAN_OR_EQUAL -> new Bound(columnId, false, true, value);
            default -> null;
        };
    }

    private static Integer columnId(DuetTable table, String name) {
        return table.table().publicColumns().stream().filter(column -> column.name().equalsIgnoreCase(name))
                .map(ColumnInfo::id).findFirst().orElse(null);
    }

    /** The column of {@code column = literal}, or null for another kind of conjunct. */
    private static Integer equalityColumn(DuetTable table, RexNode node) {
        if (node.getKind() != SqlKind.EQUALS) {
            return null;
        }
        RexNode left = RexUtil.removeCast(((RexCall) node).getOperands().get(0));
        RexNode right = RexUtil.removeCast(((RexCall) node).getOperands().get(1));
        RexInputRef reference = left instanceof RexInputRef l && right instanceof RexLiteral ? l
                : right instanceof RexInputRef r && left instanceof RexLiteral ? r : null;
        List<ColumnInfo> columns = table.table().publicColumns();
        return reference == null || reference.getIndex() >= columns.size() ? null : columns.get(reference.getIndex()).id();
    }

    /** The literal of {@code column = literal} as the executor's value, or null. */
    private static Object equalityValue(RexNode equality) {
        RexNode left = RexUtil.removeCast(((RexCall) equality).getOperands().get(0));
        RexNode right = RexUtil.removeCast(((RexCall) equality).getOperands().get(1));
        RexLiteral literal = right instanceof RexLiteral r ? r : left instanceof RexLiteral l ? l : null;
        return literal == null ? null : literalValue(literal);
    }

    /** The largest set among {@code columnIds} that is an analyzed index's first columns; empty when none is. */
    private static java.util.Set<Integer> largestIndexPrefix(DuetTable table, java.util.Set<Integer> columnIds) {
        java.util.Set<Integer> best = java.util.Set.of();
        for (IndexInfo index : table.table().indexes()) {
            java.util.Set<Integer> prefix = new java.util.HashSet<>();
            for (String name : index.columns()) {
                Integer id = table.table().publicColumns().stream().filter(column -> column.name().equalsIgnoreCase(name))
                        .map(ColumnInfo::id).findFirst().orElse(null);
                if (id == null || !columnIds.contains(id)) {
                    break;
                }
                prefix.add(id);
                if (prefix.size() > best.size() && table.statistics()
                        .indexPrefixDistinctCount(table.table().id(), prefix).isPresent()) {
                    best = java.util.Set.copyOf(prefix);
                }
            }
        }
        return best;
    }

    private static OptionalDouble conjunct(DuetTable table, RexNode node) {
        if (node.getKind() == SqlKind.OR) {
            double sum = 0;
            for (RexNode operand : ((RexCall) node).getOperands()) {
                OptionalDouble part = conjunct(table, operand);
                if (part.isEmpty()) {
                    return OptionalDouble.empty();
                }
                sum += part.getAsDouble();
            }
            return OptionalDouble.of(Math.min(1, sum));
        }
        if (!(node instanceof RexCall call)) {
            return OptionalDouble.empty();
        }
        SqlKind kind = call.getKind();
        if ((kind == SqlKind.IS_NULL || kind == SqlKind.IS_NOT_NULL)
                && RexUtil.removeCast(call.getOperands().get(0)) instanceof RexInputRef reference) {
            return columnSelectivity(table, reference, kind, null);
        }
        if (call.getOperands().size() != 2 || !isComparison(kind)) {
            return OptionalDouble.empty();
        }
        RexNode left = RexUtil.removeCast(call.getOperands().get(0));
        RexNode right = RexUtil.removeCast(call.getOperands().get(1));
        if (left instanceof RexInputRef reference && right instanceof RexLiteral literal) {
            Object value = literalValue(literal);
            return value == null ? OptionalDouble.empty() : columnSelectivity(table, reference, kind, value);
        }
        if (right instanceof RexInputRef reference && left instanceof RexLiteral literal) {
            Object value = literalValue(literal);
            return value == null ? OptionalDouble.empty() : columnSelectivity(table, reference, kind.reverse(), value);
        }
        return OptionalDouble.empty();
    }

    private static boolean isComparison(SqlKind kind) {
        return switch (kind) {
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> true;
            default -> false;
        };
    }

    private static OptionalDouble columnSelectivity(DuetTable table, RexInputRef reference, SqlKind kind, Object value) {
        List<ColumnInfo> columns = table.table().publicColumns();
        if (reference.getIndex() >= columns.size()) {
            return OptionalDouble.empty();
        }
        return table.statistics().selectivity(table.table().id(), columns.get(reference.getIndex()).id(), kind, value);
    }

    /** A literal as the executor's value, for comparing with statistics; null when it has no such form here. */
    private static Object literalValue(RexLiteral literal) {
        if (literal.isNull()) {
            return null;
        }
        return switch (literal.getType().getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL, DOUBLE, FLOAT, REAL -> literal.getValueAs(BigDecimal.class);
            case CHAR, VARCHAR -> literal.getValueAs(String.class);
            case DATE -> LocalDate.parse(literal.getValueAs(DateString.class).toString());
            case TIMESTAMP -> LocalDateTime.parse(literal.getValueAs(TimestampString.class).toString().replace(' ', 'T'));
            default -> null;
        };
    }
}
