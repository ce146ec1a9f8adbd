package io.duetdb.sql.prepare;

import static java.util.Objects.requireNonNull;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.AbstractTable;

import io.duetdb.sql.catalog.ColumnInfo;
import io.duetdb.sql.catalog.DatabaseInfo;
import io.duetdb.sql.catalog.TableInfo;

/** A catalog table as Calcite sees it: its public columns in order. */
public final class DuetTable extends AbstractTable {
    private final DatabaseInfo database;
    private final TableInfo table;

    DuetTable(DatabaseInfo database, TableInfo table) {
        this.database = requireNonNull(database, "database is null");
        this.table = requireNonNull(table, "table is null");
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
