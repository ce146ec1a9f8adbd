package io.duetdb.sql.prepare;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

import io.duetdb.sql.catalog.InfoSchema;

/** A read-only view of the catalog in information_schema: its columns, and its rows for one schema version. */
public final class InformationSchemaTable extends AbstractTable {
    /** A column: name, and what it holds: numbers (BIGINT, Long values), fractions (DOUBLE) or text. */
    record Column(String name, Kind kind) {
        enum Kind {
            TEXT,
            NUMBER,
            FRACTION
        }
    }

    private final String name;
    private final List<Column> columns;
    private final Function<InfoSchema, List<Object[]>> rows;
    private final InfoSchema schema;

    InformationSchemaTable(String name, List<Column> columns, Function<InfoSchema, List<Object[]>> rows,
            InfoSchema schema) {
        this.name = requireNonNull(name, "name is null");
        this.columns = List.copyOf(columns);
        this.rows = requireNonNull(rows, "rows is null");
        this.schema = requireNonNull(schema, "schema is null");
    }

    /**
     * A table of rows the server made itself (what a SHOW statement lists), for one statement: a column of whole
     * numbers only is numeric, any other is text.
     */
    public static InformationSchemaTable ofRows(String name, List<String> labels, List<Object[]> rows, InfoSchema schema) {
        List<Column> columns = new ArrayList<>();
        List<Object[]> typed = new ArrayList<>(rows.size());
        for (int i = 0; i < labels.size(); i++) {
            boolean numbers = true;
            for (Object[] row : rows) {
                numbers &= row[i] == null || row[i] instanceof Long || row[i] instanceof Integer;
            }
            columns.add(new Column(labels.get(i), numbers ? Column.Kind.NUMBER : Column.Kind.TEXT));
        }
        for (Object[] row : rows) {
            Object[] values = new Object[row.length];
            for (int i = 0; i < row.length; i++) {
                values[i] = row[i] == null ? null : columns.get(i).kind() == Column.Kind.NUMBER
                        ? Long.valueOf(((Number) row[i]).longValue()) : row[i].toString();
            }
            typed.add(values);
        }
        return new InformationSchemaTable(name, columns, current -> typed, schema);
    }

    public String name() {
        return name;
    }

    /** The view's rows: Long for numbers, Double for fractions, String (or null) for text. */
    public List<Object[]> rows() {
        return rows.apply(schema);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataTypeFactory.Builder builder = typeFactory.builder();
        for (Column column : columns) {
            RelDataType type = switch (column.kind()) {
                case NUMBER -> typeFactory.createSqlType(SqlTypeName.BIGINT);
                case FRACTION -> typeFactory.createSqlType(SqlTypeName.DOUBLE);
                case TEXT -> typeFactory.createSqlType(SqlTypeName.VARCHAR, 512);
            };
            builder.add(column.name(), typeFactory.createTypeWithNullability(type, true));
        }
        return builder.build();
    }
}
