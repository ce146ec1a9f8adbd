package io.duetdb.testing.sql;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Random;

/**
 * Random SQL expressions over a table's columns, for metamorphic testing: literals of MySQL's everyday types,
 * column references, arithmetic, comparisons (across types too), logic, NULL and truth tests, BETWEEN, IN, LIKE,
 * REGEXP, CASE, IF, COALESCE and common string, numeric and date functions, nested to a bounded depth. Every expression the generator writes is valid SQL that MySQL accepts.
 */
final class RandomExpressions {
    /** A column the expressions may read, and whether it holds numbers, text or dates. */
    record Column(String name, Kind kind) {
        enum Kind {
            NUMBER,
            TEXT,
            DATE
        }

        Column {
            requireNonNull(name, "name is null");
            requireNonNull(kind, "kind is null");
        }
    }

    private static final String[] WORDS = {"''", "'a'", "'B'", "'ab'", "'abc'", "'x%'", "'10'", "'-3'", "'2.5'",
        "' a'", "'zz'"};
    private static final String[] DATES = {"'2024-01-31'", "'2023-12-31'", "'2024-02-29'", "DATE '2024-06-01'",
        "'2024-01-31 10:20:30'"};
    private static final String[] PATTERNS = {"'^a'", "'b$'", "'[0-9]'", "'^$'", "'a|x'"};
    private static final String[] COMPARISONS = {"=", "<>", "<", "<=", ">", ">=", "<=>"};
    private static final String[] ARITHMETIC = {"+", "-", "*"};

    private final Random random;
    private final List<Column> columns;

    RandomExpressions(Random random, List<Column> columns) {
        this.random = requireNonNull(random, "random is null");
        this.columns = List.copyOf(columns);
    }

    /** A condition (a truth value, or NULL). */
    String condition(int depth) {
        if (depth <= 0) {
            return comparison(0);
        }
        return switch (random.nextInt(10)) {
            case 0 -> "(" + condition(depth - 1) + " AND " + condition(depth - 1) + ")";
            case 1 -> "(" + condition(depth - 1) + " OR " + condition(depth - 1) + ")";
            case 2 -> "(NOT " + condition(depth - 1) + ")";
            case 3 -> "(" + any(depth - 1) + (random.nextBoolean() ? " IS NULL)" : " IS NOT NULL)");
            case 4 -> "(" + number(depth - 1) + (random.nextBoolean() ? " BETWEEN " : " NOT BETWEEN ")
                    + number(0) + " AND " + number(0) + ")";
            case 5 -> "(" + number(depth - 1) + (random.nextBoolean() ? " IN (" : " NOT IN (") + number(0) + ", "
                    + number(0) + ", " + number(0) + "))";
            case 6 -> "(" + text(depth - 1) + (random.nextBoolean() ? " LIKE " : " NOT LIKE ")
                    + WORDS[random.nextInt(WORDS.length)] + ")";
            case 7 -> "(" + condition(depth - 1) + " XOR " + condition(depth - 1) + ")";
            case 8 -> switch (random.nextInt(4)) {
                case 0 -> "(" + text(depth - 1) + (random.nextBoolean() ? " IN (" : " NOT IN (")
                        + WORDS[random.nextInt(WORDS.length)] + ", " + WORDS[random.nextInt(WORDS.length)] + "))";
                case 1 -> "(" + condition(depth - 1) + (random.nextBoolean() ? " IS TRUE)" : " IS NOT FALSE)");
                case 2 -> "(" + text(depth - 1) + (random.nextBoolean() ? " REGEXP " : " NOT REGEXP ")
                        + PATTERNS[random.nextInt(PATTERNS.length)] + ")";
                default -> "(" + number(depth - 1) + ")";
            };
            default -> comparison(depth - 1);
        };
    }

    private String comparison(int depth) {
        String operator = COMPARISONS[random.nextInt(COMPARISONS.length)];
        return switch (random.nextInt(7)) {
            case 0 -> "(" + text(depth) + " " + operator + " " + text(depth) + ")";
            case 1 -> "(" + date(depth) + " " + operator + " " + date(depth) + ")";
            // MySQL's comparisons across types: a string against a number compares as numbers, a date against a
            // string as dates.
            case 2 -> "(" + number(depth) + " " + operator + " " + text(depth) + ")";
            case 3 -> "(" + date(depth) + " " + operator + " " + text(depth) + ")";
            default -> "(" + number(depth) + " " + operator + " " + number(depth) + ")";
        };
    }

    /** An expression of any kind. */
    String any(int depth) {
        return switch (random.nextInt(3)) {
            case 0 -> text(depth);
            case 1 -> date(depth);
            default -> number(depth);
        };
    }

    /** A numeric expression. */
    String number(int depth) {
        if (depth <= 0 || random.nextInt(3) == 0) {
            return random.nextInt(3) == 0 ? numberLiteral() : column(Column.Kind.NUMBER);
        }
        return switch (random.nextInt(13)) {
            case 0, 1 -> "(" + number(depth - 1) + " " + ARITHMETIC[random.nextInt(ARITHMETIC.length)] + " "
                    + number(depth - 1) + ")";
            case 9 -> "YEAR(" + date(depth - 1) + ")";
            case 10 -> "DATEDIFF(" + date(depth - 1) + ", " + date(depth - 1) + ")";
            case 11 -> "ROUND(" + number(depth - 1) + ", " + random.nextInt(3) + ")";
            case 12 -> "GREATEST(" + number(depth - 1) + ", " + number(depth - 1) + ")";
            case 2 -> "ABS(" + number(depth - 1) + ")";
            case 3 -> "COALESCE(" + number(depth - 1) + ", " + number(depth - 1) + ")";
            case 4 -> "IF(" + condition(depth - 1) + ", " + number(depth - 1) + ", " + number(depth - 1) + ")";
            case 5 -> "CASE WHEN " + condition(depth - 1) + " THEN " + number(depth - 1) + " ELSE "
                    + number(depth - 1) + " END";
            case 6 -> "LENGTH(" + text(depth - 1) + ")";
            case 7 -> "IFNULL(" + number(depth - 1) + ", " + numberLiteral() + ")";
            case 8 -> switch (random.nextInt(12)) {
                case 0 -> "MOD(" + number(depth - 1) + ", " + number(depth - 1) + ")";
                case 1 -> "(" + number(depth - 1) + " / " + number(depth - 1) + ")";
                case 2 -> "(" + number(depth - 1) + " DIV " + number(depth - 1) + ")";
                case 3 -> (random.nextBoolean() ? "FLOOR(" : "CEILING(") + number(depth - 1) + ")";
                case 4 -> "SIGN(" + number(depth - 1) + ")";
                case 5 -> "LEAST(" + number(depth - 1) + ", " + number(depth - 1) + ")";
                case 6 -> "NULLIF(" + number(depth - 1) + ", " + number(depth - 1) + ")";
                case 7 -> "CAST(" + text(depth - 1) + (random.nextBoolean() ? " AS SIGNED)" : " AS DECIMAL(10,2))");
                case 8 -> (random.nextBoolean() ? "MONTH(" : "DAYOFWEEK(") + date(depth - 1) + ")";
                case 9 -> "LOCATE(" + text(depth - 1) + ", " + text(depth - 1) + ")";
                case 10 -> "STRCMP(" + text(depth - 1) + ", " + text(depth - 1) + ")";
                default -> "(" + text(depth - 1) + " + 0)";
            };
            // A space after the minus: "--" and a digit would read as a comment in Calcite's lexer (in MySQL
            // only "-- " starts one).
            default -> "(- " + number(depth - 1) + ")";
        };
    }

    /** A text expression. */
    String text(int depth) {
        if (depth <= 0 || random.nextInt(3) == 0) {
            return random.nextInt(3) == 0 ? WORDS[random.nextInt(WORDS.length)] : column(Column.Kind.TEXT);
        }
        return switch (random.nextInt(8)) {
            case 6 -> switch (random.nextInt(6)) {
                case 0 -> "LEFT(" + text(depth - 1) + ", " + random.nextInt(3) + ")";
                case 1 -> "REPLACE(" + text(depth - 1) + ", 'a', 'b')";
                case 2 -> "REVERSE(" + text(depth - 1) + ")";
                case 3 -> "LPAD(" + text(depth - 1) + ", 3, '*')";
                case 4 -> "CAST(" + number(depth - 1) + " AS CHAR)";
                default -> "IF(" + condition(depth - 1) + ", " + text(depth - 1) + ", " + text(depth - 1) + ")";
            };
            case 7 -> "CASE WHEN " + condition(depth - 1) + " THEN " + text(depth - 1) + " ELSE " + text(depth - 1)
                    + " END";
            case 0 -> "CONCAT(" + text(depth - 1) + ", " + text(depth - 1) + ")";
            case 1 -> "UPPER(" + text(depth - 1) + ")";
            case 2 -> "LOWER(" + text(depth - 1) + ")";
            case 3 -> "COALESCE(" + text(depth - 1) + ", " + WORDS[random.nextInt(WORDS.length)] + ")";
            case 4 -> "SUBSTRING(" + text(depth - 1) + ", 1, 2)";
            default -> "TRIM(" + text(depth - 1) + ")";
        };
    }

    /** A date expression. */
    String date(int depth) {
        if (depth <= 0 || random.nextInt(2) == 0) {
            return random.nextInt(3) == 0 ? DATES[random.nextInt(DATES.length)] : column(Column.Kind.DATE);
        }
        return switch (random.nextInt(5)) {
            case 3 -> "DATE_SUB(" + date(depth - 1) + ", INTERVAL " + random.nextInt(3) + " MONTH)";
            case 4 -> "LAST_DAY(" + date(depth - 1) + ")";
            case 0 -> "DATE_ADD(" + date(depth - 1) + ", INTERVAL " + random.nextInt(40) + " DAY)";
            case 1 -> "COALESCE(" + date(depth - 1) + ", " + DATES[random.nextInt(DATES.length)] + ")";
            default -> "DATE(" + date(depth - 1) + ")";
        };
    }

    private String numberLiteral() {
        return switch (random.nextInt(6)) {
            case 0 -> "NULL";
            case 1 -> String.valueOf(random.nextInt(5) - 2);
            case 2 -> String.valueOf(random.nextInt(200) - 100) + "." + random.nextInt(100);
            case 3 -> String.valueOf(random.nextInt(1000));
            default -> String.valueOf(random.nextInt(21) - 10);
        };
    }

    private String column(Column.Kind kind) {
        List<Column> matching = columns.stream().filter(column -> column.kind() == kind).toList();
        return matching.get(random.nextInt(matching.size())).name();
    }
}
