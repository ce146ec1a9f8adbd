package io.duetdb.compute.expression;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * MySQL's SUBSTRING(s, position [, length]) in characters: position 1 is the first character, a negative
 * position counts from the end, position 0 or a length below 1 give the empty string. NULL when s is NULL.
 */
public final class SubstringExpression implements VectorExpression {
    private static final FieldType STRING = ValueTypes.of(ValueType.STRING);

    private final VectorExpression text;
    private final long position;
    private final long length;

    /** {@code length} is {@link Long#MAX_VALUE} for "to the end". */
    public SubstringExpression(VectorExpression text, long position, long length) {
        this.text = requireNonNull(text, "text is null");
        if (text.type().getType() != ValueType.STRING) {
            throw new UnsupportedExpressionException("SUBSTRING of a " + text.type().getType() + " value");
        }
        this.position = position;
        this.length = length;
    }

    @Override
    public FieldType type() {
        return STRING;
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        VarCharVector out = new VarCharVector("substring", allocator);
        out.allocateNew(rows);
        try (Operand input = text.operand(batch, allocator)) {
            for (int row = 0; row < rows; row++) {
                if (input.isNull(row)) {
                    out.setNull(row);
                } else {
                    out.setSafe(row, cut(new String(input.getBytes(row), StandardCharsets.UTF_8))
                            .getBytes(StandardCharsets.UTF_8));
                }
            }
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
        out.setValueCount(rows);
        return out;
    }

    private String cut(String value) {
        int characters = value.codePointCount(0, value.length());
        if (position == 0 || length < 1 || Math.abs(position) > characters) {
            return "";
        }
        long start = position > 0 ? position - 1 : characters + position;
        long end = length >= characters ? characters : Math.min(characters, start + length);
        int from = value.offsetByCodePoints(0, (int) start);
        int to = value.offsetByCodePoints(from, (int) (end - start));
        return value.substring(from, to);
    }
}
