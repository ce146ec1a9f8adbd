package io.duetdb.compute;

import java.math.BigDecimal;

import com.google.protobuf.ByteString;

import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.Literal;

/** Literal constants of plans, to and from the Java values of {@link VectorValues}. */
public final class Literals {
    public static final Literal NULL = Literal.newBuilder().setNull(true).build();

    private Literals() {
    }

    public static Object value(Literal literal, FieldType type) {
        if (literal.getNull()) {
            return null;
        }
        return switch (type.getType()) {
            case INT64, UINT64, DATE, DATETIME, TIMESTAMP, TIME -> literal.getIntValue();
            case BOOLEAN -> literal.getIntValue() != 0;
            case FLOAT32 -> (float) literal.getDoubleValue();
            case FLOAT64 -> literal.getDoubleValue();
            case DECIMAL -> {
                try {
                    yield new BigDecimal(literal.getDecimalValue());
                } catch (NumberFormatException e) {
                    throw new UnsupportedExpressionException("invalid DECIMAL literal '" + literal.getDecimalValue() + "'");
                }
            }
            case STRING -> literal.getStringValue();
            case BYTES -> literal.getBytesValue().toByteArray();
            default -> throw new UnsupportedExpressionException("literal of type " + type.getType());
        };
    }

    public static Literal of(Object value) {
        if (value == null) {
            return NULL;
        }
        Literal.Builder literal = Literal.newBuilder();
        if (value instanceof Long number) {
            literal.setIntValue(number);
        } else if (value instanceof Boolean bool) {
            literal.setIntValue(bool ? 1 : 0);
        } else if (value instanceof Double || value instanceof Float) {
            literal.setDoubleValue(((Number) value).doubleValue());
        } else if (value instanceof BigDecimal decimal) {
            literal.setDecimalValue(decimal.toPlainString());
        } else if (value instanceof String text) {
            literal.setStringValue(text);
        } else if (value instanceof byte[] bytes) {
            literal.setBytesValue(ByteString.copyFrom(bytes));
        } else {
            throw new UnsupportedExpressionException("no literal form for " + value.getClass().getSimpleName());
        }
        return literal.build();
    }
}
