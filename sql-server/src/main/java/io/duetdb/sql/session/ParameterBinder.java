package io.duetdb.sql.session;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;

import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlShuttle;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.exec.Values;

/** Binds the values of a prepared execution to the statement's {@code ?} placeholders. */
final class ParameterBinder {
    private ParameterBinder() {
    }

    /** How many placeholders a statement has. */
    static int count(SqlNode statement) {
        int[] highest = {-1};
        statement.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlDynamicParam parameter) {
                highest[0] = Math.max(highest[0], parameter.getIndex());
                return parameter;
            }
        });
        return highest[0] + 1;
    }

    /**
     * The statement text with each {@code ?} outside strings, quoted names and comments replaced by the SQL
     * literal of its value. Binding text rather than trees keeps DuetDB's own statement nodes intact.
     */
    static String bindText(String sql, List<Object> parameters) {
        StringBuilder out = new StringBuilder(sql.length() + parameters.size() * 8);
        int next = 0;
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = i + 1;
                while (end < sql.length()) {
                    char d = sql.charAt(end);
                    if (d == '\\' && c != '`') {
                        end += 2;
                        continue;
                    }
                    if (d == c) {
                        if (end + 1 < sql.length() && sql.charAt(end + 1) == c) {
                            end += 2;
                            continue;
                        }
                        break;
                    }
                    end++;
                }
                end = Math.min(sql.length(), end + 1);
                out.append(sql, i, end);
                i = end;
            } else if (c == '-' && sql.startsWith("-- ", i) || c == '#') {
                int end = sql.indexOf('\n', i);
                end = end < 0 ? sql.length() : end;
                out.append(sql, i, end);
                i = end;
            } else if (c == '/' && sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                end = end < 0 ? sql.length() : end + 2;
                out.append(sql, i, end);
                i = end;
            } else if (c == '?') {
                if (next >= parameters.size()) {
                    throw new DuetException(ErrorCode.WRONG_ARGUMENTS, "Incorrect arguments to mysqld_stmt_execute");
                }
                out.append(sqlLiteral(parameters.get(next++)));
                i++;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static String sqlLiteral(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof Long || value instanceof Integer || value instanceof BigDecimal) {
            return Values.toDecimal(value).toPlainString();
        }
        if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            if (Double.isNaN(number) || Double.isInfinite(number)) {
                throw new DuetException(ErrorCode.INCORRECT_VALUE, "Incorrect double value: '" + number + "'");
            }
            String text = Double.toString(number);
            return text.contains("E") ? text : text + "E0";
        }
        if (value instanceof byte[] bytes) {
            return "X'" + java.util.HexFormat.of().formatHex(bytes) + "'";
        }
        String text = value instanceof Duration duration ? formatTime(duration) : Values.toText(value);
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    private static String formatTime(Duration duration) {
        Duration absolute = duration.abs();
        return String.format("%s%d:%02d:%02d.%06d", duration.isNegative() ? "-" : "", absolute.toHours(),
                absolute.toMinutesPart(), absolute.toSecondsPart(), absolute.toNanosPart() / 1000);
    }
}
