package io.duetdb.sql.exec;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.regex.Pattern;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.prepare.DuetFunctions;
import io.duetdb.sql.prepare.JsonTypes;
import io.duetdb.sql.prepare.TypeMapping;

/** Compiles Calcite row expressions into {@link RowExpression} trees with MySQL's NULL and type semantics. */
public final class ExpressionCompiler {
    private final RexBuilder rexBuilder;
    private final SessionFunctions session;
    private final List<Object> parameters;

    public ExpressionCompiler(RexBuilder rexBuilder, SessionFunctions session, List<Object> parameters) {
        this.rexBuilder = rexBuilder;
        this.session = session;
        this.parameters = parameters;
    }

    SessionFunctions session() {
        return session;
    }

    public RexBuilder rexBuilder() {
        return rexBuilder;
    }

    public RowExpression compile(RexNode node) {
        RexNode expanded = SearchExpansion.expand(rexBuilder, node);
        return compileExpanded(expanded);
    }

    private RowExpression compileExpanded(RexNode node) {
        if (node instanceof RexInputRef input) {
            int index = input.getIndex();
            return row -> row[index];
        }
        if (node instanceof RexLiteral literal) {
            Object value = literalValue(literal);
            return row -> value;
        }
        if (node instanceof RexDynamicParam parameter) {
            int index = parameter.getIndex();
            return row -> parameters.get(index);
        }
        if (node instanceof RexCall call) {
            return compileCall(call);
        }
        throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "expression not supported: " + node);
    }

    public static Object literalValue(RexLiteral literal) {
        if (literal.isNull()) {
            return null;
        }
        SqlTypeName type = literal.getType().getSqlTypeName();
        return switch (type) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> literal.getValueAs(Long.class);
            case DECIMAL, UBIGINT -> literal.getValueAs(BigDecimal.class);
            case DOUBLE, FLOAT, REAL -> literal.getValueAs(Double.class);
            case CHAR, VARCHAR -> literal.getValueAs(String.class);
            case BOOLEAN -> literal.getValueAs(Boolean.class);
            case BINARY, VARBINARY -> literal.getValueAs(byte[].class);
            case DATE -> LocalDate.parse(literal.getValueAs(DateString.class).toString());
            case TIMESTAMP -> Temporals.parseDateTime(literal.getValueAs(TimestampString.class).toString());
            case TIME -> Temporals.parseTime(literal.getValueAs(TimeString.class).toString());
            case SYMBOL -> literal.getValue();
            default -> {
                Object value = literal.getValue();
                yield value instanceof NlsString nls ? nls.getValue() : value;
            }
        };
    }

    private RowExpression compileCall(RexCall call) {
        List<RowExpression> operands = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
            operands.add(compileExpanded(operand));
        }
        SqlType resultType = TypeMapping.fromCalcite(call.getType());
        SqlTypeName calciteType = call.getType().getSqlTypeName();
        SqlKind kind = unchecked(call.getKind());
        if (kind.belongsTo(SqlKind.COMPARISON) && JsonComparison.applies(call)) {
            return JsonComparison.of(call, this::compileExpanded);
        }
        switch (kind) {
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL:
                return comparison(operands.get(0), operands.get(1), Values::compare, comparisonTest(kind));
            case IS_NOT_DISTINCT_FROM: {
                RowExpression left = operands.get(0);
                RowExpression right = operands.get(1);
                return row -> {
                    Object a = left.evaluate(row);
                    Object b = right.evaluate(row);
                    return a == null || b == null ? a == b : Values.compare(a, b) == 0;
                };
            }
            case AND:
                return row -> {
                    boolean unknown = false;
                    for (RowExpression operand : operands) {
                        Boolean value = Values.truth(operand.evaluate(row));
                        if (value == null) {
                            unknown = true;
                        } else if (!value) {
                            return false;
                        }
                    }
                    return unknown ? null : Boolean.TRUE;
                };
            case OR:
                return row -> {
                    boolean unknown = false;
                    for (RowExpression operand : operands) {
                        Boolean value = Values.truth(operand.evaluate(row));
                        if (value == null) {
                            unknown = true;
                        } else if (value) {
                            return true;
                        }
                    }
                    return unknown ? null : Boolean.FALSE;
                };
            case NOT: {
                RowExpression operand = operands.get(0);
                return row -> {
                    Boolean value = Values.truth(operand.evaluate(row));
                    return value == null ? null : !value;
                };
            }
            case IS_NULL: {
                RowExpression operand = operands.get(0);
                return row -> operand.evaluate(row) == null;
            }
            case IS_NOT_NULL: {
                RowExpression operand = operands.get(0);
                return row -> operand.evaluate(row) != null;
            }
            case IS_TRUE: {
                RowExpression operand = operands.get(0);
                return row -> Boolean.TRUE.equals(Values.truth(operand.evaluate(row)));
            }
            case IS_FALSE: {
                RowExpression operand = operands.get(0);
                return row -> Boolean.FALSE.equals(Values.truth(operand.evaluate(row)));
            }
            case IS_NOT_TRUE: {
                RowExpression operand = operands.get(0);
                return row -> !Boolean.TRUE.equals(Values.truth(operand.evaluate(row)));
            }
            case IS_NOT_FALSE: {
                RowExpression operand = operands.get(0);
                return row -> !Boolean.FALSE.equals(Values.truth(operand.evaluate(row)));
            }
            case PLUS:
            case MINUS:
            case TIMES:
            case DIVIDE:
            case MOD:
                if (call.getOperands().size() == 2 && isInterval(call.getOperands().get(1))
                        && (kind == SqlKind.PLUS || kind == SqlKind.MINUS)) {
                    return intervalArithmetic(operands.get(0), operands.get(1),
                            isMonthInterval(call.getOperands().get(1)), kind == SqlKind.MINUS);
                }
                if (call.getOperands().size() == 2 && isInterval(call.getOperands().get(0)) && kind == SqlKind.PLUS) {
                    return intervalArithmetic(operands.get(1), operands.get(0),
                            isMonthInterval(call.getOperands().get(0)), false);
                }
                if (call.getOperands().size() == 2) {
                    return arithmetic(kind, operands.get(0), operands.get(1), calciteType, resultType);
                }
                break;
            case MINUS_PREFIX: {
                RowExpression operand = operands.get(0);
                return row -> {
                    Object value = operand.evaluate(row);
                    if (value == null) {
                        return null;
                    }
                    if (value instanceof Long number) {
                        return Math.negateExact(number);
                    }
                    if (value instanceof Double number) {
                        return -number;
                    }
                    return Values.toDecimal(value).negate();
                };
            }
            case PLUS_PREFIX:
                return operands.get(0);
            case CAST:
                return Casts.cast(operands.get(0), call.getOperands().get(0).getType(), call.getType());
            case CASE:
                return row -> {
                    int last = operands.size() - 1;
                    for (int i = 0; i < last; i += 2) {
                        if (Boolean.TRUE.equals(Values.truth(operands.get(i).evaluate(row)))) {
                            return operands.get(i + 1).evaluate(row);
                        }
                    }
                    return operands.get(last).evaluate(row);
                };
            case COALESCE:
                return row -> {
                    for (RowExpression operand : operands) {
                        Object value = operand.evaluate(row);
                        if (value != null) {
                            return value;
                        }
                    }
                    return null;
                };
            case LIKE:
                return like(call, operands);
            default:
                break;
        }
        return function(call, operands, resultType);
    }

    /** Calcite's overflow-checking arithmetic (INTERVAL n DAY is n * INTERVAL '1' DAY) is ours: it always checks. */
    private static SqlKind unchecked(SqlKind kind) {
        return switch (kind) {
            case CHECKED_PLUS -> SqlKind.PLUS;
            case CHECKED_MINUS -> SqlKind.MINUS;
            case CHECKED_TIMES -> SqlKind.TIMES;
            case CHECKED_DIVIDE -> SqlKind.DIVIDE;
            case CHECKED_MINUS_PREFIX -> SqlKind.MINUS_PREFIX;
            default -> kind;
        };
    }

    interface ComparisonTest {
        boolean test(int comparison);
    }

    /** What a comparison operator asks of the sign of {@code compare(a, b)}. */
    static ComparisonTest comparisonTest(SqlKind kind) {
        return switch (kind) {
            case EQUALS -> c -> c == 0;
            case NOT_EQUALS -> c -> c != 0;
            case LESS_THAN -> c -> c < 0;
            case LESS_THAN_OR_EQUAL -> c -> c <= 0;
            case GREATER_THAN -> c -> c > 0;
            case GREATER_THAN_OR_EQUAL -> c -> c >= 0;
            default -> throw new IllegalArgumentException("not a comparison: " + kind);
        };
    }

    /** A comparison of two operands in {@code order}: NULL when either is. */
    static RowExpression comparison(RowExpression left, RowExpression right, Comparator<Object> order,
            ComparisonTest test) {
        return row -> {
            Object a = left.evaluate(row);
            if (a == null) {
                return null;
            }
            Object b = right.evaluate(row);
            if (b == null) {
                return null;
            }
            return test.test(order.compare(a, b));
        };
    }

    private static RowExpression arithmetic(SqlKind kind, RowExpression left, RowExpression right,
            SqlTypeName resultType, SqlType mapped) {
        return row -> {
            Object a = left.evaluate(row);
            if (a == null) {
                return null;
            }
            Object b = right.evaluate(row);
            if (b == null) {
                return null;
            }
            boolean approximate = a instanceof Double || b instanceof Double || a instanceof Float
                    || b instanceof Float || resultType == SqlTypeName.DOUBLE || resultType == SqlTypeName.REAL
                    || a instanceof String || b instanceof String;
            if (approximate) {
                double x = Values.toDouble(a);
                double y = Values.toDouble(b);
                return switch (kind) {
                    case PLUS -> x + y;
                    case MINUS -> x - y;
                    case TIMES -> x * y;
                    case DIVIDE -> y == 0 ? null : x / y;
                    default -> y == 0 ? null : x % y;
                };
            }
            if (a instanceof Long x && b instanceof Long y && kind != SqlKind.DIVIDE) {
                try {
                    return switch (kind) {
                        case PLUS -> Math.addExact(x, y);
                        case MINUS -> Math.subtractExact(x, y);
                        case TIMES -> Math.multiplyExact(x, y);
                        default -> y == 0 ? null : x % y;
                    };
                } catch (ArithmeticException e) {
                    throw new DuetException(ErrorCode.OUT_OF_RANGE_VALUE, "BIGINT value is out of range in '("
                            + x + " " + kind.sql + " " + y + ")'");
                }
            }
            BigDecimal x = Values.toDecimal(a);
            BigDecimal y = Values.toDecimal(b);
            return switch (kind) {
                case PLUS -> x.add(y);
                case MINUS -> x.subtract(y);
                case TIMES -> x.multiply(y);
                // At the planned scale, as the stores' evaluator divides: MySQL's division plans the dividend's
                // scale plus four; Calcite's own (AVG OVER expanded to CAST(sum) / count) plans AVG's scale.
                case DIVIDE -> y.signum() == 0 ? null : x.divide(y, resultType == SqlTypeName.DECIMAL && mapped != null
                        ? mapped.scale() : Math.min(30, Math.max(x.scale(), 0) + 4), RoundingMode.HALF_UP);
                // MySQL's remainder has the larger operand scale: 0 % 1.5 is 0.0.
                default -> y.signum() == 0 ? null
                        : x.remainder(y).setScale(Math.max(0, Math.max(x.scale(), y.scale())), RoundingMode.HALF_UP);
            };
        };
    }

    private static RowExpression like(RexCall call, List<RowExpression> operands) {
        RowExpression subject = operands.get(0);
        RowExpression patternExpression = operands.get(1);
        boolean negated = call.getOperator().getName().toUpperCase(Locale.ROOT).contains("NOT");
        return row -> {
            Object value = subject.evaluate(row);
            Object pattern = patternExpression.evaluate(row);
            if (value == null || pattern == null) {
                return null;
            }
            boolean matches = likePattern(Values.toText(pattern)).matcher(Values.toText(value)).matches();
            return negated != matches;
        };
    }

    static Pattern likePattern(String pattern) {
        return io.duetdb.compute.LikePatterns.compile(pattern);
    }

    private static boolean isInterval(RexNode node) {
        return org.apache.calcite.sql.type.SqlTypeUtil.isInterval(node.getType());
    }

    /**
     * A date or datetime plus or minus an interval. Calcite gives year-month intervals in months and day-time
     * intervals in milliseconds; MySQL keeps a DATE a DATE when whole days are added, and clamps the day of
     * month (2026-01-31 + 1 month is 2026-02-28).
     */
    private static RowExpression intervalArithmetic(RowExpression datetime, RowExpression interval, boolean months,
            boolean subtract) {
        return row -> {
            Object value = datetime.evaluate(row);
            Object amount = interval.evaluate(row);
            if (value == null || amount == null) {
                return null;
            }
            long count = Values.toDecimal(amount).longValue() * (subtract ? -1 : 1);
            if (months) {
                if (value instanceof java.time.LocalDate date) {
                    return date.plusMonths(count);
                }
                return Temporals.toDateTime(value).plusMonths(count);
            }
            if (value instanceof java.time.LocalDate date && count % 86_400_000L == 0) {
                return date.plusDays(count / 86_400_000L);
            }
            return Temporals.toDateTime(value).plus(java.time.Duration.ofMillis(count));
        };
    }

    private static boolean isMonthInterval(RexNode interval) {
        return interval.getType().getSqlTypeName().getFamily()
                == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }

    /**
     * DATE_ADD, DATE_SUB, ADDDATE and SUBDATE: the interval arithmetic of {@code date + INTERVAL n unit}, a plain
     * number counting days, and the result in the type DuetFunctions gave the call (a string argument gives a
     * date's or a datetime's text). MySQL answers NULL for an argument that is no date.
     */
    private static RowExpression dateArithmetic(RexCall call, List<RowExpression> operands, String name) {
        RexNode amountNode = call.getOperands().get(1);
        RowExpression amount = operands.get(1);
        if (!isInterval(amountNode)) {
            amount = row -> {
                Object days = operands.get(1).evaluate(row);
                return days == null ? null : Values.toLong(days) * 86_400_000L;
            };
        }
        RowExpression date = operands.get(0);
        RowExpression parsedDate = row -> {
            Object value = date.evaluate(row);
            if (value instanceof String || value instanceof byte[]) {
                String text = Values.toText(value).strip();
                try {
                    LocalDateTime dateTime = Temporals.parseDateTime(text);
                    return text.length() <= 10 ? dateTime.toLocalDate() : dateTime;
                } catch (DuetException e) {
                    return null;
                }
            }
            return value;
        };
        boolean subtract = name.equals("DATE_SUB") || name.equals("SUBDATE");
        RowExpression sum = intervalArithmetic(parsedDate, amount, isInterval(amountNode) && isMonthInterval(amountNode),
                subtract);
        SqlTypeName resultType = call.getType().getSqlTypeName();
        return row -> {
            Object value = sum.evaluate(row);
            if (value == null) {
                return null;
            }
            return switch (resultType) {
                case DATE -> value instanceof LocalDateTime dateTime ? dateTime.toLocalDate() : value;
                case TIMESTAMP -> Temporals.toDateTime(value);
                default -> Values.toText(value);
            };
        };
    }

    /** EXTRACT(unit FROM date or datetime), MySQL's units that TPC-H and the like use. */
    private RowExpression extract(RexCall call, List<RowExpression> operands) {
        Object flag = ((RexLiteral) call.getOperands().get(0)).getValue();
        String unit = String.valueOf(flag).toUpperCase(Locale.ROOT);
        RowExpression source = operands.get(1);
        return row -> {
            Object value = source.evaluate(row);
            if (value == null) {
                return null;
            }
            if (value instanceof java.time.Duration time) {
                // A TIME's parts, as MySQL reads them: hours may pass 24, and the sign is not part of any.
                java.time.Duration magnitude = time.abs();
                return switch (unit) {
                    case "HOUR" -> magnitude.toHours();
                    case "MINUTE" -> (long) magnitude.toMinutesPart();
                    case "SECOND" -> (long) magnitude.toSecondsPart();
                    case "MICROSECOND" -> (long) magnitude.toNanosPart() / 1000;
                    default -> extract(unit, DateTimeExpressions.dateTimeOrNull(time, session));
                };
            }
            return extract(unit, Temporals.toDateTime(value));
        };
    }

    private static Long extract(String unit, java.time.LocalDateTime dateTime) {
        return switch (unit) {
            case "YEAR" -> (long) dateTime.getYear();
            case "QUARTER" -> (long) (dateTime.getMonthValue() + 2) / 3;
            case "MONTH" -> (long) dateTime.getMonthValue();
            case "DAY" -> (long) dateTime.getDayOfMonth();
            case "HOUR" -> (long) dateTime.getHour();
            case "MINUTE" -> (long) dateTime.getMinute();
            case "SECOND" -> (long) dateTime.getSecond();
            case "MICROSECOND" -> (long) dateTime.getNano() / 1000;
            // MySQL's DAYOFWEEK: 1 is Sunday.
            case "DOW" -> (long) dateTime.getDayOfWeek().getValue() % 7 + 1;
            case "DOY" -> (long) dateTime.getDayOfYear();
            case "WEEK" -> (Long) CalendarFunctions.of("WEEK").apply(new Object[] {dateTime.toLocalDate()});
            default -> throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "EXTRACT(" + unit + " ...) is not supported yet");
        };
    }

    private RowExpression function(RexCall call, List<RowExpression> operands, SqlType resultType) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (name.equals("JSON_VALUE")) {
            return JsonValueFunction.compile(call, operands);
        }
        if (name.startsWith("JSON_") || name.equals("CAST_AS_JSON")) {
            List<RelDataType> types = new ArrayList<>();
            for (RexNode operand : call.getOperands()) {
                types.add(operand.getType());
            }
            RowExpression json = JsonExpressions.compile(name, operands, types);
            if (json != null) {
                return json;
            }
        }
        if (name.startsWith("DUET_COLLAT")) {
            RowExpression collated = CollationExpressions.compile(name, call, operands.get(0));
            if (collated != null) {
                return collated;
            }
        }
        switch (name) {
            case "EXTRACT":
                return extract(call, operands);
            case "DATE_ADD":
            case "DATE_SUB":
            case "ADDDATE":
            case "SUBDATE":
                return dateArithmetic(call, operands, name);
            case "DUET_SYSTEM_VARIABLE":
                return row -> {
                    Object value = session.systemVariable(Values.toText(operands.get(0).evaluate(row)),
                            Values.toText(operands.get(1).evaluate(row)));
                    return value == null ? null : Values.toText(value);
                };
            case "DUET_INTEGER_SYSTEM_VARIABLE":
                return row -> {
                    Object value = session.systemVariable(Values.toText(operands.get(0).evaluate(row)),
                            Values.toText(operands.get(1).evaluate(row)));
                    return value == null ? null : Long.parseLong(Values.toText(value).strip());
                };
            case "DUET_USER_VARIABLE":
                return row -> {
                    Object value = session.userVariable(Values.toText(operands.get(0).evaluate(row)));
                    return value == null ? null : Values.toText(value);
                };
            case "DUET_SET_USER_VARIABLE":
                return row -> {
                    Object value = operands.get(1).evaluate(row);
                    session.setUserVariable(Values.toText(operands.get(0).evaluate(row)), value);
                    return value;
                };
            case "DUET_TRUTH":
                return row -> Values.truth(operands.get(0).evaluate(row));
            case "DATABASE":
            case "SCHEMA":
                return row -> session.currentDatabase();
            case "VERSION":
                return row -> session.serverVersion();
            case "CONNECTION_ID":
                return row -> session.connectionId();
            case "LAST_INSERT_ID":
                return row -> session.lastInsertId();
            case "ROW_COUNT":
                return row -> session.rowCount();
            case "FOUND_ROWS":
                return row -> session.foundRows();
            case "USER":
            case "CURRENT_USER":
                return row -> session.user();
            case "NOW":
            case "CURRENT_TIMESTAMP":
            case "LOCALTIMESTAMP":
                if (operands.size() == 1) {
                    return row -> {
                        Object fsp = operands.get(0).evaluate(row);
                        int digits = DuetFunctions.fractionalDigits(fsp == null ? 0 : (int) Values.toDouble(fsp));
                        int nanos = session.statementTime().getNano();
                        int unit = (int) Math.pow(10, 9 - digits);
                        return session.statementTime().withNano(nanos - nanos % unit);
                    };
                }
                return row -> session.statementTime().withNano(0);
            case "CURRENT_DATE":
                return row -> session.statementTime().toLocalDate();
            case "BENCHMARK":
                return row -> {
                    Object count = operands.get(0).evaluate(row);
                    long times = count == null ? 0 : Values.toLong(count);
                    if (times < 0) {
                        throw new DuetException(ErrorCode.WRONG_ARGUMENTS, "Incorrect count value: '" + times
                                + "' for function benchmark");
                    }
                    for (long i = 0; i < times; i++) {
                        operands.get(1).evaluate(row);
                        if ((i & 0xFFF) == 0) {
                            session.checkNotKilled();
                        }
                    }
                    return 0L;
                };
            case "SLEEP":
                return row -> {
                    Object seconds = operands.get(0).evaluate(row);
                    if (seconds == null) {
                        return 0L;
                    }
                    double value = Values.toDouble(seconds);
                    if (value < 0) {
                        throw new DuetException(ErrorCode.WRONG_ARGUMENTS, "Incorrect arguments to sleep.");
                    }
                    return session.sleep(value);
                };
            default:
                break;
        }
        Function<Object[], Object> nullSafe = null;
        switch (name) {
            case "UPPER":
                nullSafe = args -> Values.toText(args[0]).toUpperCase(Locale.ROOT);
                break;
            case "LOWER":
                nullSafe = args -> Values.toText(args[0]).toLowerCase(Locale.ROOT);
                break;
            case "CHAR_LENGTH":
            case "CHARACTER_LENGTH":
                nullSafe = args -> {
                    String text = Values.toText(args[0]);
                    return (long) text.codePointCount(0, text.length());
                };
                break;
            case "ASCII":
                // MySQL's ASCII: the first byte of the string (of its UTF-8 encoding), 0 for the empty string
                nullSafe = args -> {
                    String text = Values.toText(args[0]);
                    return text.isEmpty() ? 0L : (long) (text.substring(0, text.offsetByCodePoints(0, 1))
                            .getBytes(StandardCharsets.UTF_8)[0] & 0xFF);
                };
                break;
            case "LENGTH":
            case "OCTET_LENGTH":
                nullSafe = args -> (long) (args[0] instanceof byte[] bytes ? bytes.length
                        : Values.toText(args[0]).getBytes(StandardCharsets.UTF_8).length);
                break;
            case "||":
            case "CONCAT":
                nullSafe = args -> {
                    StringBuilder text = new StringBuilder();
                    for (Object arg : args) {
                        text.append(Values.toText(arg));
                    }
                    return text.toString();
                };
                break;
            case "ABS":
                nullSafe = args -> args[0] instanceof Long number ? Math.abs(number)
                        : args[0] instanceof Double number ? Math.abs(number) : Values.toDecimal(args[0]).abs();
                break;
            case "FLOOR":
                nullSafe = args -> args[0] instanceof Long ? args[0] : args[0] instanceof Double number
                        ? Math.floor(number) : Values.toDecimal(args[0]).setScale(0, RoundingMode.FLOOR);
                break;
            case "CEIL":
            case "CEILING":
                nullSafe = args -> args[0] instanceof Long ? args[0] : args[0] instanceof Double number
                        ? Math.ceil(number) : Values.toDecimal(args[0]).setScale(0, RoundingMode.CEILING);
                break;
            case "ROUND":
                nullSafe = args -> {
                    int digits = args.length > 1 ? (int) Values.toLong(args[1]) : 0;
                    if (args[0] instanceof Double number) {
                        return BigDecimal.valueOf(number).setScale(digits, RoundingMode.HALF_EVEN).doubleValue();
                    }
                    BigDecimal rounded = Values.toDecimal(args[0]).setScale(digits, RoundingMode.HALF_UP);
                    return args[0] instanceof Long ? (Object) rounded.longValue() : rounded;
                };
                break;
            case "SUBSTRING":
            case "SUBSTR":
                nullSafe = args -> {
                    String text = Values.toText(args[0]);
                    int length = text.length();
                    long start = Values.toLong(args[1]);
                    int from = start > 0 ? (int) Math.min(start - 1, length) : start < 0
                            ? (int) Math.max(length + start, 0) : length;
                    int to = args.length > 2 ? (int) Math.min(length, from + Math.max(0, Values.toLong(args[2])))
                            : length;
                    return text.substring(from, Math.max(from, to));
                };
                break;
            case "TRIM":
                nullSafe = args -> {
                    String text = Values.toText(args[2]);
                    String strip = Values.toText(args[1]);
                    String flag = String.valueOf(args[0]);
                    if (!flag.equals("TRAILING")) {
                        while (!strip.isEmpty() && text.startsWith(strip)) {
                            text = text.substring(strip.length());
                        }
                    }
                    if (!flag.equals("LEADING")) {
                        while (!strip.isEmpty() && text.endsWith(strip)) {
                            text = text.substring(0, text.length() - strip.length());
                        }
                    }
                    return text;
                };
                break;
            case "IFNULL":
            case "NVL":
                return row -> {
                    Object value = operands.get(0).evaluate(row);
                    return value != null ? value : operands.get(1).evaluate(row);
                };
            case "IF":
                return row -> Boolean.TRUE.equals(Values.truth(operands.get(0).evaluate(row)))
                        ? operands.get(1).evaluate(row) : operands.get(2).evaluate(row);
            case "NULLIF": {
                Function<Object[], Object> collated = CollationExpressions.nullTolerantFunction(name, call);
                if (collated != null) {
                    return row -> collated.apply(new Object[] {operands.get(0).evaluate(row), operands.get(1).evaluate(row)});
                }
                return row -> {
                    Object a = operands.get(0).evaluate(row);
                    Object b = operands.get(1).evaluate(row);
                    return a != null && b != null && Values.compare(a, b) == 0 ? null : a;
                };
            }
            case "CONCAT_WS":
                // NULL separator gives NULL; NULL values are skipped.
                return row -> {
                    Object separator = operands.get(0).evaluate(row);
                    if (separator == null) {
                        return null;
                    }
                    java.util.StringJoiner joined = new java.util.StringJoiner(Values.toText(separator));
                    for (RowExpression operand : operands.subList(1, operands.size())) {
                        Object value = operand.evaluate(row);
                        if (value != null) {
                            joined.add(Values.toText(value));
                        }
                    }
                    return joined.toString();
                };
            case "RAND":
                if (operands.isEmpty()) {
                    return row -> ThreadLocalRandom.current().nextDouble();
                }
                break;
            default:
                Function<Object[], Object> collatedTolerant = CollationExpressions.nullTolerantFunction(name, call);
                Function<Object[], Object> tolerant = collatedTolerant != null ? collatedTolerant
                        : EncodingFunctions.nullTolerant(name);
                if (tolerant != null) {
                    return row -> {
                        Object[] args = new Object[operands.size()];
                        for (int i = 0; i < args.length; i++) {
                            args[i] = operands.get(i).evaluate(row);
                        }
                        return tolerant.apply(args);
                    };
                }
                nullSafe = CollationExpressions.function(name, call);
                if (nullSafe == null) {
                    nullSafe = MySqlFunctions.of(name, session);
                }
                if (nullSafe == null) {
                    throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "function " + name + " is not supported yet");
                }
                break;
        }
        if (nullSafe == null) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "function " + name + " is not supported yet");
        }
        Function<Object[], Object> body = nullSafe;
        return row -> {
            Object[] args = new Object[operands.size()];
            for (int i = 0; i < args.length; i++) {
                args[i] = operands.get(i).evaluate(row);
                if (args[i] == null && !(i == 0 && name.equals("TRIM"))) {
                    return null;
                }
            }
            return body.apply(args);
        };
    }

}
