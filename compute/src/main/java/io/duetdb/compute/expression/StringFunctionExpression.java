package io.duetdb.compute.expression;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScalarFunction;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * MySQL's UPPER, LOWER, CHAR_LENGTH, OCTET_LENGTH (LENGTH), ASCII and CONCAT over strings: NULL in, NULL out.
 * Case mappings are Unicode's, independent of locale; lengths count code points or UTF-8 bytes; ASCII is the first
 * byte of the UTF-8 form (0 for the empty string).
 */
public final class StringFunctionExpression implements VectorExpression {
    private final ScalarFunction function;
    private final List<VectorExpression> arguments;
    private final FieldType type;

    public StringFunctionExpression(ScalarFunction function, List<VectorExpression> arguments) {
        this.function = requireNonNull(function, "function is null");
        this.arguments = List.copyOf(arguments);
        boolean concat = function == ScalarFunction.CONCAT;
        if (concat ? this.arguments.isEmpty() : this.arguments.size() != 1) {
            throw new UnsupportedExpressionException(function + " with " + this.arguments.size() + " arguments");
        }
        for (VectorExpression argument : this.arguments) {
            ValueType argumentType = argument.type().getType();
            boolean bytesAllowed = function == ScalarFunction.OCTET_LENGTH && argumentType == ValueType.BYTES;
            if (argumentType != ValueType.STRING && !bytesAllowed) {
                throw new UnsupportedExpressionException(function + " of a " + argumentType + " value");
            }
        }
        this.type = switch (function) {
            case UPPER, LOWER, CONCAT -> ValueTypes.of(ValueType.STRING);
            case CHAR_LENGTH, OCTET_LENGTH, ASCII -> ValueTypes.of(ValueType.INT64);
            default -> throw new UnsupportedExpressionException(function + " is not a string function");
        };
    }

    @Override
    public FieldType type() {
        return type;
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        List<Operand> operands = new ArrayList<>(arguments.size());
        try {
            for (VectorExpression argument : arguments) {
                operands.add(argument.operand(batch, allocator));
            }
            return type.getType() == ValueType.INT64 ? numbers(operands.get(0), rows, allocator)
                    : strings(operands, rows, allocator);
        } finally {
            operands.forEach(Operand::close);
        }
    }

    private FieldVector numbers(Operand text, int rows, BufferAllocator allocator) {
        BigIntVector out = new BigIntVector(function.name(), allocator);
        try {
            out.allocateNew(rows);
            for (int row = 0; row < rows; row++) {
                if (text.isNull(row)) {
                    out.setNull(row);
                    continue;
                }
                byte[] bytes = text.getBytes(row);
                long length = bytes.length;
                if (function == ScalarFunction.ASCII) {
                    length = bytes.length == 0 ? 0 : bytes[0] & 0xFF;
                } else if (function == ScalarFunction.CHAR_LENGTH) {
                    // A code point starts at every byte that is not a UTF-8 continuation byte (10xxxxxx).
                    length = 0;
                    for (byte b : bytes) {
                        if ((b & 0xC0) != 0x80) {
                            length++;
                        }
                    }
                }
                out.set(row, length);
            }
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    private FieldVector strings(List<Operand> operands, int rows, BufferAllocator allocator) {
        VarCharVector out = new VarCharVector(function.name(), allocator);
        try {
            out.allocateNew(rows);
            for (int row = 0; row < rows; row++) {
                byte[] value = value(operands, row);
                if (value == null) {
                    out.setNull(row);
                } else {
                    out.setSafe(row, value);
                }
            }
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    private byte[] value(List<Operand> operands, int row) {
        for (Operand operand : operands) {
            if (operand.isNull(row)) {
                return null;
            }
        }
        return switch (function) {
            case UPPER -> text(operands.get(0), row).toUpperCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8);
            case LOWER -> text(operands.get(0), row).toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8);
            case CONCAT -> {
                if (operands.size() == 1) {
                    yield operands.get(0).getBytes(row);
                }
                java.io.ByteArrayOutputStream joined = new java.io.ByteArrayOutputStream();
                for (Operand operand : operands) {
                    joined.writeBytes(operand.getBytes(row));
                }
                yield joined.toByteArray();
            }
            default -> throw new IllegalStateException("not a string result: " + function);
        };
    }

    private static String text(Operand operand, int row) {
        return new String(operand.getBytes(row), StandardCharsets.UTF_8);
    }
}
