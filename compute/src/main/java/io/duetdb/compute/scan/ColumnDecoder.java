package io.duetdb.compute.scan;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;

import io.duetdb.common.row.RowColumn;
import io.duetdb.common.row.RowView;
import io.duetdb.compute.VectorValues;
import io.duetdb.proto.coprocessor.FieldType;

/**
 * Writes one column of row-codec rows into a vector: in place for the common types (integers, decimals that fit
 * a long, dates, strings and bytes), through Java values for the others. A row without the column gets its
 * default.
 */
public final class ColumnDecoder {
    private enum Kind {
        SIGNED,
        VARIABLE,
        DECIMAL,
        DATE,
        GENERAL
    }

    private final RowColumn column;
    private final FieldType type;
    private final Object defaultValue;
    private final EpochDays epochDays;
    private Kind kind;

    /** A decoder of column {@code columnId} of type {@code type}; {@code defaultValue} is in the vectors' form. */
    public ColumnDecoder(int columnId, FieldType type, Object defaultValue) {
        this(columnId, type, defaultValue, new EpochDays());
    }

    ColumnDecoder(int columnId, FieldType type, Object defaultValue, EpochDays epochDays) {
        this.type = requireNonNull(type, "type is null");
        this.column = RowColumn.of(columnId, StoredValues.storageType(type));
        this.defaultValue = defaultValue;
        this.epochDays = requireNonNull(epochDays, "epochDays is null");
    }

    public int columnId() {
        return column.id();
    }

    public Object defaultValue() {
        return defaultValue;
    }

    /** Whether the vector takes variable-width values (strings and bytes). */
    public static boolean isVariableWidth(FieldVector vector) {
        return vector instanceof BaseVariableWidthVector;
    }

    /** Writes the row's value (or NULL, or the default) into {@code vector} at {@code index}. */
    public void write(RowView row, FieldVector vector, int index) {
        if (kind == null) {
            kind = kindOf(vector);
        }
        long span = row.span(column.id());
        if (span == RowView.NULL) {
            VectorValues.set(vector, index, null);
            return;
        }
        if (span == RowView.ABSENT) {
            VectorValues.set(vector, index, defaultValue);
            return;
        }
        switch (kind) {
            case SIGNED -> ((BigIntVector) vector).setSafe(index, row.signedAt(span));
            case VARIABLE -> ((BaseVariableWidthVector) vector).setSafe(index, row.bytes(), (int) (span >>> 32), (int) span);
            case DECIMAL -> {
                DecimalVector decimals = (DecimalVector) vector;
                long unscaled = row.unscaledAt(span, decimals.getScale());
                if (unscaled != RowView.NOT_A_LONG) {
                    decimals.setSafe(index, unscaled);
                } else {
                    VectorValues.set(vector, index, StoredValues.toCompute(row.get(column), type));
                }
            }
            case DATE -> ((DateDayVector) vector).setSafe(index, epochDays.of(row.unsignedAt(span)));
            case GENERAL -> VectorValues.set(vector, index, StoredValues.toCompute(row.get(column), type));
        }
    }

    private static Kind kindOf(FieldVector vector) {
        if (vector instanceof BigIntVector) {
            return Kind.SIGNED;
        }
        if (vector instanceof BaseVariableWidthVector) {
            return Kind.VARIABLE;
        }
        if (vector instanceof DecimalVector) {
            return Kind.DECIMAL;
        }
        return vector instanceof DateDayVector ? Kind.DATE : Kind.GENERAL;
    }
}
