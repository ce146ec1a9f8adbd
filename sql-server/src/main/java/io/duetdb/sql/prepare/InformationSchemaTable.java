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
import io.duetdb.sql.exec.SessionFunctions;

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
    /** Rows of the server's and the session's state (null for views of the catalog). */
    private final Function<SessionFunctions, List<Object[]>> sessionRows;
    private final InfoSchema schema;

    InformationSchemaTable(String name, List<Column> columns, Function<InfoSchema, List<Object[]>> rows,
            InfoSchema schema) {
        this(name, columns, rows, null, schema);
    }

    private InformationSchemaTable(String name, List<Column> columns, Function<InfoSchema, List<Object[]>> rows,
            Function<SessionFunctions, List<Object[]>> sessionRows, InfoSchema schema) {
        this.name = requireNonNull(name, "name is null");
        this.columns = List.copyOf(columns);
        this.rows = requireNonNull(rows, "rows is null");
        this.sessionRows = sessionRows;
        this.schema = requireNonNull(schema, "schema is null");
    }

    /** A view of the server's state as the reading session sees it (its variables, the connections it may list). */
    static InformationSchemaTable ofSession(String name, List<Column> columns,
            Function<SessionFunctions, List<Object[]>> sessionRows, InfoSchema schema) {
        return new InformationSchemaTable(name, columns, current -> List.of(), requireNonNull(sessionRows,
                "sessionRows is null"), schema);
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

    /** The view's rows as {@code session} reads them: Long for numbers, Double for fractions, String (or null) for text. */
    public List<Object[]> rows(SessionFunctions session) {
        return sessionRows != null ? sessionRows.apply(session) : rows.apply(schema);
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
