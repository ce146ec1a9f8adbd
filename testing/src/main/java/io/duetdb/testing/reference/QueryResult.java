package io.duetdb.testing.reference;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A query's result with its values normalised so that two engines can be compared: numbers of every type become
 * {@link BigDecimal}, DATE columns {@link LocalDate}, DATETIME and TIMESTAMP columns {@link LocalDateTime} (read
 * from their text, so that no time zone applies), everything else its text; NULL stays null. {@code scales}
 * holds each DECIMAL column's declared scale (-1 for other columns), which bounds the rounding the comparison
 * allows.
 */
public record QueryResult(List<String> columns, List<Integer> scales, List<List<Object>> rows) {
    /** Relative tolerance for numbers, beside the rounding a DECIMAL column's scale implies. */
    public static final double RELATIVE_TOLERANCE = 1e-6;

    /** Reads and normalises every row of {@code result}. */
    public static QueryResult read(ResultSet result) throws SQLException {
        ResultSetMetaData meta = result.getMetaData();
        int count = meta.getColumnCount();
        List<String> columns = new ArrayList<>(count);
        List<Integer> scales = new ArrayList<>(count);
        int[] types = new int[count];
        for (int i = 1; i <= count; i++) {
            columns.add(meta.getColumnLabel(i));
            types[i - 1] = meta.getColumnType(i);
            scales.add(types[i - 1] == Types.DECIMAL || types[i - 1] == Types.NUMERIC ? meta.getScale(i) : -1);
        }
        List<List<Object>> rows = new ArrayList<>();
        while (result.next()) {
            List<Object> row = new ArrayList<>(count);
            for (int i = 1; i <= count; i++) {
                row.add(value(result, i, types[i - 1]));
            }
            rows.add(row);
        }
        return new QueryResult(columns, scales, rows);
    }

    private static Object value(ResultSet result, int column, int type) throws SQLException {
        if (type == Types.DATE) {
            String text = result.getString(column);
            return text == null ? null : LocalDate.parse(text.length() > 10 ? text.substring(0, 10) : text);
        }
        if (type == Types.TIMESTAMP) {
            String text = result.getString(column);
            return text == null ? null : LocalDateTime.parse(text.strip().replace(' ', 'T'));
        }
        Object value = result.getObject(column);
        if (value == null) {
            return null;
        }
        if (value instanceof BigDecimal decimal) {
            return decimal;
        }
        if (value instanceof BigInteger integer) {
            return new BigDecimal(integer);
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) ? BigDecimal.valueOf(d) : value.toString();
        }
        if (value instanceof Number number) {
            return BigDecimal.valueOf(number.longValue());
        }
        if (value instanceof Boolean bool) {
            return bool ? BigDecimal.ONE : BigDecimal.ZERO;
        }
        if (value instanceof java.sql.Date) {
            return LocalDate.parse(result.getString(column).substring(0, 10));
        }
        return result.getString(column);
    }

    /**
     * Null when {@code actual} has the rows of this (expected) result, else what differs: the row counts and the
     * first differing rows. {@code ordered} compares the lists in order; otherwise both are sorted first and
     * compared as multisets. Numbers match when they differ by at most {@link #RELATIVE_TOLERANCE} of the larger
     * or by half a unit in the last place of the coarser DECIMAL column; text exactly; dates as dates; NULL only
     * NULL. A number and a text that reads as the same number match too (engines disagree on some result types).
     */
    public String differences(QueryResult actual, boolean ordered) {
        if (actual.columns.size() != columns.size()) {
            return "columns " + actual.columns + ", expected " + columns;
        }
        List<List<Object>> expectedRows = rows;
        List<List<Object>> actualRows = actual.rows;
        if (!ordered) {
            expectedRows = sorted(expectedRows);
            actualRows = sorted(actualRows);
        }
        int n = Math.min(expectedRows.size(), actualRows.size());
        for (int i = 0; i < n; i++) {
            if (!rowsMatch(expectedRows.get(i), actualRows.get(i), actual.scales)) {
                String where = ordered ? "row " + (i + 1) : "sorted row " + (i + 1);
                String counts = expectedRows.size() == actualRows.size() ? ""
                        : actualRows.size() + " rows, expected " + expectedRows.size() + "; ";
                return counts + where + ": got " + format(actualRows.get(i)) + ", expected " + format(expectedRows.get(i));
            }
        }
        if (expectedRows.size() != actualRows.size()) {
            String extra = actualRows.size() > n ? "first extra row " + format(actualRows.get(n))
                    : "first missing row " + format(expectedRows.get(n));
            return actualRows.size() + " rows, expected " + expectedRows.size() + "; " + extra;
        }
        return null;
    }

    private boolean rowsMatch(List<Object> expected, List<Object> actual, List<Integer> actualScales) {
        for (int i = 0; i < expected.size(); i++) {
            if (!valuesMatch(expected.get(i), actual.get(i), Math.max(-1, minScale(scales.get(i), actualScales.get(i))))) {
                return false;
            }
        }
        return true;
    }

    private static int minScale(int a, int b) {
        return a < 0 ? b : b < 0 ? a : Math.min(a, b);
    }

    static boolean valuesMatch(Object expected, Object actual, int scale) {
        if (expected == null || actual == null) {
            return expected == actual;
        }
        BigDecimal e = number(expected);
        BigDecimal a = number(actual);
        if (e != null && a != null && (expected instanceof BigDecimal || actual instanceof BigDecimal)) {
            BigDecimal difference = e.subtract(a).abs();
            double allowed = RELATIVE_TOLERANCE * Math.max(e.abs().doubleValue(), a.abs().doubleValue());
            if (scale >= 0) {
                allowed = Math.max(allowed, 0.5 * Math.pow(10, -scale) * (1 + 1e-9));
            }
            return difference.doubleValue() <= allowed;
        }
        return expected.equals(actual);
    }

    private static BigDecimal number(Object value) {
        if (value instanceof BigDecimal decimal) {
            return decimal;
        }
        if (value instanceof String text) {
            try {
                return new BigDecimal(text.strip());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(ROW_ORDER);
        return copy;
    }

    private static final Comparator<Object> VALUE_ORDER = (a, b) -> {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
            return x.compareTo(y);
        }
        if (a instanceof LocalDate x && b instanceof LocalDate y) {
            return x.compareTo(y);
        }
        if (a instanceof LocalDateTime x && b instanceof LocalDateTime y) {
            return x.compareTo(y);
        }
        if (a.getClass() != b.getClass()) {
            return a.getClass().getName().compareTo(b.getClass().getName());
        }
        return a.toString().compareTo(b.toString());
    };

    private static final Comparator<List<Object>> ROW_ORDER = (a, b) -> {
        // text and dates first, so that rows whose numbers differ within the tolerance still line up
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                boolean numeric = a.get(i) instanceof BigDecimal || b.get(i) instanceof BigDecimal;
                if (numeric == (pass == 1)) {
                    int c = VALUE_ORDER.compare(a.get(i), b.get(i));
                    if (c != 0) {
                        return c;
                    }
                }
            }
        }
        return Integer.compare(a.size(), b.size());
    };

    static String format(List<Object> row) {
        List<String> values = new ArrayList<>(row.size());
        for (Object value : row) {
            values.add(value instanceof BigDecimal decimal ? decimal.toPlainString() : Objects.toString(value));
        }
        return "[" + String.join(" | ", values) + "]";
    }
}
