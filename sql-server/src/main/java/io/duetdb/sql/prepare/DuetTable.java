package io.duetdb.sql.prepare;

import static java.util.Objects.requireNonNull;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.AbstractTable;

import io.duetdb.sql.catalog.ColumnInfo;
import io.duetdb.sql.catalog.DatabaseInfo;
import io.duetdb.sql.catalog.TableInfo;

/**
 * A catalog table as Calcite sees it: its public columns in order, and what statistics say of its rows (the
 * row count ANALYZE measured, else Calcite's default guess) and its keys.
 */
public final class DuetTable extends AbstractTable {
    private final DatabaseInfo database;
    private final TableInfo table;
    private final RowCounts rowCounts;

    /** The analyzed row count of a table, looked up when planning (statistics change without the schema). */
    public interface RowCounts {
        RowCounts NONE = tableId -> java.util.OptionalLong.empty();

        java.util.OptionalLong rowCount(long tableId);
    }

    DuetTable(DatabaseInfo database, TableInfo table, RowCounts rowCounts) {
        this.database = requireNonNull(database, "database is null");
        this.table = requireNonNull(table, "table is null");
        this.rowCounts = requireNonNull(rowCounts, "rowCounts is null");
    }

    @Override
    public org.apache.calcite.schema.Statistic getStatistic() {
        java.util.OptionalLong rows = rowCounts.rowCount(table.id());
        java.util.List<org.apache.calcite.util.ImmutableBitSet> keys = new java.util.ArrayList<>();
        java.util.List<ColumnInfo> columns = table.publicColumns();
        for (io.duetdb.sql.catalog.IndexInfo index : table.indexes()) {
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

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataTypeFactory.Builder builder = typeFactory.builder();
        for (ColumnInfo column : table.publicColumns()) {
            builder.add(column.name(), TypeMapping.toCalcite(typeFactory, column.type(), !column.notNull()));
        }
        return builder.build();
    }
}
