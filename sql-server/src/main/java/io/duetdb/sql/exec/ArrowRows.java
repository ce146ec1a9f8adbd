package io.duetdb.sql.exec;

import java.math.BigDecimal;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.List;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.VectorValues;
import io.duetdb.proto.coprocessor.FieldType;

/**
 * A coprocessor batch as executor rows, a column at a time: the common vector classes are read in place
 * (a DECIMAL that fits a long without its 16 bytes going through a BigInteger), the rest through
 * {@link VectorValues} and {@link ComputeValues#toSql}.
 */
final class ArrowRows {
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private ArrowRows() {
    }

    static void addRows(VectorSchemaRoot batch, List<FieldType> types, List<Object[]> rows) {
        int count = batch.getRowCount();
        int width = types.size();
        Object[][] converted = new Object[count][];
        for (int row = 0; row < count; row++) {
            converted[row] = new Object[width];
        }
        for (int column = 0; column < width; column++) {
            convert(batch.getVector(column), types.get(column), converted, column);
        }
        java.util.Collections.addAll(rows, converted);
    }

    private static void convert(FieldVector vector, FieldType type, Object[][] rows, int column) {
        if (vector instanceof BigIntVector longs) {
            for (int row = 0; row < rows.length; row++) {
                rows[row][column] = longs.isNull(row) ? null : longs.get(row);
            }
        } else if (vector instanceof DateDayVector days) {
            for (int row = 0; row < rows.length; row++) {
                rows[row][column] = days.isNull(row) ? null : LocalDate.ofEpochDay(days.get(row));
            }
        } else if (vector instanceof VarCharVector strings) {
            for (int row = 0; row < rows.length; row++) {
                rows[row][column] = strings.isNull(row) ? null : new String(strings.get(row), StandardCharsets.UTF_8);
            }
        } else if (vector instanceof DecimalVector decimals) {
            for (int row = 0; row < rows.length; row++) {
                rows[row][column] = decimals.isNull(row) ? null : decimal(decimals, row);
            }
        } else {
            for (int row = 0; row < rows.length; row++) {
                rows[row][column] = ComputeValues.toSql(VectorValues.get(vector, row), type);
            }
        }
    }

    private static BigDecimal decimal(DecimalVector vector, int row) {
        if (LITTLE_ENDIAN) {
            long offset = (long) row * DecimalVector.TYPE_WIDTH;
            long low = vector.getDataBuffer().getLong(offset);
            if (vector.getDataBuffer().getLong(offset + Long.BYTES) == low >> 63) {
                return BigDecimal.valueOf(low, vector.getScale());
            }
        }
        return vector.getObject(row);
    }
}
