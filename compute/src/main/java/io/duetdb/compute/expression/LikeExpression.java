package io.duetdb.compute.expression;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.LikePatterns;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.proto.coprocessor.ValueType;

/** {@code value LIKE 'pattern'} with a constant pattern: NULL when the value is NULL. */
public final class LikeExpression extends BooleanExpression {
    private final VectorExpression value;
    private final Pattern pattern;
    /** The pattern's literal text before its first wildcard, when the rest is a single trailing %. */
    private final byte[] prefix;

    public LikeExpression(VectorExpression value, String pattern) {
        this.value = requireNonNull(value, "value is null");
        requireNonNull(pattern, "pattern is null");
        if (value.type().getType() != ValueType.STRING) {
            throw new UnsupportedExpressionException("LIKE on a " + value.type().getType() + " value");
        }
        this.pattern = LikePatterns.compile(pattern);
        int wildcard = firstWildcard(pattern);
        this.prefix = wildcard >= 0 && wildcard == pattern.length() - 1 && pattern.charAt(wildcard) == '%'
                ? pattern.substring(0, wildcard).getBytes(StandardCharsets.UTF_8) : null;
    }

    private static int firstWildcard(String pattern) {
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\') {
                return -1;
            }
            if (c == '%' || c == '_') {
                return i;
            }
        }
        return -1;
    }

    @Override
    void fill(VectorSchemaRoot batch, BufferAllocator allocator, BitVector out, int rows) {
        try (Operand text = value.operand(batch, allocator)) {
            for (int row = 0; row < rows; row++) {
                if (text.isNull(row)) {
                    out.setNull(row);
                    continue;
                }
                byte[] bytes = text.getBytes(row);
                boolean matches = prefix != null ? startsWith(bytes, prefix)
                        : pattern.matcher(new String(bytes, StandardCharsets.UTF_8)).matches();
                out.set(row, matches ? 1 : 0);
            }
        }
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        return bytes.length >= prefix.length && java.util.Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }
}
