package io.duetdb.sql.prepare;

import static java.util.Objects.requireNonNull;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.AbstractTable;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.TableInfo;

/**
 * A catalog table as Calcite sees it: its public columns in order, and what statistics say of its rows (the
 * row count ANALYZE measured, else Calcite's default guess) and its keys.
 */
public final class DuetTable extends AbstractTable {
    private final DatabaseInfo database;
    private final TableInfo table;
    private final StatisticsSource statistics;

    /**
     * What planning asks of a table's statistics (ANALYZE's, answered by the statistics package): counts, and the
     * fraction of rows for which a column compares so with a constant. Empty answers mean "not analyzed".
     */
    public interface StatisticsSource {
        StatisticsSource NONE = new StatisticsSource() {
        };

        default java.util.OptionalLong rowCount(long tableId) {
            return java.util.OptionalLong.empty();
        }

        default java.util.OptionalLong distinctCount(long tableId, int columnId) {
            return java.util.OptionalLong.empty();
        }

        /**
         * The distinct value tuples of exactly these columns when they are an analyzed index's first columns (in
         * any order); empty otherwise.
         */
        default java.util.OptionalLong indexPrefixDistinctCount(long tableId, java.util.Set<Integer> columnIds) {
            return java.util.OptionalLong.empty();
        }

        /**
         * The fraction of the rows whose columns hold these values ({@code values} by column id), when the columns
         * are an analyzed index's first columns: a frequent tuple's own count, else the rows the frequent tuples
         * leave spread over the other distinct tuples; empty otherwise.
         */
        default java.util.OptionalDouble indexPrefixEquality(long tableId, java.util.Map<Integer, Object> values) {
            return java.util.OptionalDouble.empty();
        }

        /**
         * The fraction of rows whose columns equal {@code prefix} (an analyzed index's first columns, by column id)
         * and whose next index column {@code columnId} lies in the range (a null bound is open; NULLs are outside),
         * read from the index's histogram of tuples; empty when no index fits or its histogram is too coarse for
         * the prefix's rows.
         */
        default java.util.OptionalDouble indexPrefixRange(long tableId, java.util.Map<Integer, Object> prefix, int columnId,
                Object lower, boolean lowerInclusive, Object upper, boolean upperInclusive) {
            return java.util.OptionalDouble.empty();
        }

        /** The column's average width in bytes over the sampled rows. */
        default java.util.OptionalDouble averageWidth(long tableId, int columnId) {
            return java.util.OptionalDouble.empty();
        }

        /**
         * The fraction of all rows for which {@code column comparison value} holds ({@code value} null for IS NULL
         * and IS NOT NULL), for the comparisons EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN,
         * GREATER_THAN_OR_EQUAL, IS_NULL and IS_NOT_NULL.
         */
        default java.util.OptionalDouble selectivity(long tableId, int columnId, org.apache.calcite.sql.SqlKind comparison,
                Object value) {
            return java.util.OptionalDouble.empty();
        }
    }

    DuetTable(DatabaseInfo database, TableInfo table, StatisticsSource statistics) {
        this.database = requireNonNull(database, "database is null");
        this.table = requireNonNull(table, "table is null");
        this.statistics = requireNonNull(statistics, "statistics is null");
    }

    @Override
    public org.apache.calcite.schema.Statistic getStatistic() {
        java.util.OptionalLong rows = statistics.rowCount(table.id());
        java.util.List<org.apache.calcite.util.ImmutableBitSet> keys = new java.util.ArrayList<>();
        java.util.List<ColumnInfo> columns = table.publicColumns();
        for (IndexInfo index : table.indexes()) {
            if (!index.unique() || !index.state().isWritable()) {
                continue;
            }
            org.apache.calcite.util.ImmutableBitSet.Builder key = org.apache.calcite.util.ImmutableBitSet.builder();
            boolean complete = true;
            for (String name : index.columns()) {
                int position = -1;
                for (int i = 0; i < columns.size(); i++) {
                    if (columns.get(i).name().equalsIgnoreCase(name)) {
                        position = i;
                    }
                }
                complete &= position >= 0;
                if (position >= 0) {
                    key.set(position);
                }
            }
            if (complete) {
                keys.add(key.build());
            }
        }
        Double rowCount = rows.isPresent() ? Double.valueOf(Math.max(1, rows.getAsLong())) : null;
        return org.apache.calcite.schema.Statistics.of(rowCount, keys, java.util.List.of(), java.util.List.of());
    }

    public DatabaseInfo database() {
        return database;
    }

    public TableInfo table() {
        return table;
    }

    public StatisticsSource statistics() {
        return statistics;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataTypeFactory.Builder builder = typeFactory.builder();
        for (ColumnInfo column : table.publicColumns()) {
            builder.add(column.name(), TypeMapping.toCalcite(typeFactory, column.type(), !column.notNull()));
        }
        return builder.build();
    }
}
