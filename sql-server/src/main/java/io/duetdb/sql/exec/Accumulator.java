package io.duetdb.sql.exec;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.type.SqlTypeName;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.Collation;
import io.duetdb.sql.prepare.MySqlCollations;

/** The state of one aggregate function over one group. */
abstract class Accumulator {
    /** MySQL's default group_concat_max_len. */
    private static final int GROUP_CONCAT_MAX_LENGTH = 1024;
    private final int[] arguments;
    private final int filter;
    private final Set<GroupKey> distinctSeen;

    Accumulator(AggregateCall call) {
        List<Integer> argumentList = call.getArgList();
        this.arguments = argumentList.stream().mapToInt(Integer::intValue).toArray();
        this.filter = call.filterArg;
        this.distinctSeen = call.isDistinct() ? new HashSet<>() : null;
    }

    static Accumulator of(AggregateCall call) {
        return of(call, null);
    }

    /** The accumulator of {@code call} over rows of {@code inputType} (null when unknown: no JSON arguments). */
    static Accumulator of(AggregateCall call, RelDataType inputType) {
        String name = call.getAggregation().getName().toUpperCase(Locale.ROOT);
        if (name.equals("JSON_ARRAYAGG") || name.equals("JSON_OBJECTAGG")) {
            return JsonAggregates.of(call, inputType);
        }
        boolean approximate = call.getType().getSqlTypeName() == SqlTypeName.DOUBLE
                || call.getType().getSqlTypeName() == SqlTypeName.REAL;
        int scale = Math.max(0, call.getType().getScale());
        return switch (name) {
            case "COUNT" -> new Accumulator(call) {
                private long count;

                @Override
                void accept(Object[] values) {
                    count++;
                }

                @Override
                Object result() {
                    return count;
                }
            };
            case "SUM", "$SUM0" -> new Accumulator(call) {
                private Object sum;

                @Override
                void accept(Object[] values) {
                    Object value = values[0];
                    if (approximate) {
                        sum = (sum == null ? 0.0 : (Double) sum) + Values.toDouble(value);
                    } else {
                        sum = (sum == null ? BigDecimal.ZERO : (BigDecimal) sum).add(Values.toDecimal(value));
                    }
                }

                @Override
                Object result() {
                    if (sum == null && name.equals("$SUM0")) {
                        return approximate ? (Object) 0.0 : BigDecimal.ZERO;
                    }
                    return sum;
                }
            };
            case "AVG" -> new Accumulator(call) {
                private BigDecimal sum = BigDecimal.ZERO;
                private double doubleSum;
                private long count;

                @Override
                void accept(Object[] values) {
                    count++;
                    if (approximate) {
                        doubleSum += Values.toDouble(values[0]);
                    } else {
                        sum = sum.add(Values.toDecimal(values[0]));
                    }
                }

                @Override
                Object result() {
                    if (count == 0) {
                        return null;
                    }
                    return approximate ? (Object) (doubleSum / count)
                            : sum.divide(BigDecimal.valueOf(count), scale, RoundingMode.HALF_UP);
                }
            };
            case "MIN", "MAX" -> new Accumulator(call) {
                /** Text under a collation other than the binary one compares by it; everything else by value. */
                private final Collation collation = MySqlCollations.collated(call.getType())
                        ? MySqlCollations.of(call.getType()) : null;
                private Object best;

                @Override
                void accept(Object[] values) {
                    Object value = values[0];
                    if (best == null) {
                        best = value;
                        return;
                    }
                    int order = collation == null ? Values.compare(value, best)
                            : collation.compare(Values.toText(value), Values.toText(best));
                    if (name.equals("MIN") ? order < 0 : order > 0) {
                        best = value;
                    }
                }

                @Override
                Object result() {
                    return best;
                }
            };
            case "SINGLE_VALUE" -> new Accumulator(call) {
                private Object value;
                private boolean seen;

                @Override
                void accept(Object[] values) {
                    if (seen) {
                        throw new DuetException(ErrorCode.SUBQUERY_RETURNS_MORE_THAN_ONE_ROW,
                                "Subquery returns more than 1 row");
                    }
                    seen = true;
                    value = values[0];
                }

                @Override
                Object result() {
                    return value;
                }
            };
            // MySQL's GROUP_CONCAT([DISTINCT] x [ORDER BY ...] [SEPARATOR s]), which Calcite reads as LISTAGG.
            case "LISTAGG", "GROUP_CONCAT" -> new Accumulator(call) {
                private final List<org.apache.calcite.rel.RelFieldCollation> order = call.getCollation().getFieldCollations();
                private final java.util.ArrayList<Object[]> items = new java.util.ArrayList<>();

                @Override
                void accept(Object[] values) {
                    throw new IllegalStateException("GROUP_CONCAT takes the whole row");
                }

                @Override
                void accept(Object[] values, Object[] row) {
                    Object[] item = new Object[order.size() + 2];
                    for (int i = 0; i < order.size(); i++) {
                        item[i] = row[order.get(i).getFieldIndex()];
                    }
                    item[order.size()] = Values.toText(values[0]);
                    item[order.size() + 1] = values.length > 1 ? Values.toText(values[1]) : ",";
                    items.add(item);
                }

                @Override
                Object result() {
                    if (items.isEmpty()) {
                        return null;
                    }
                    if (!order.isEmpty()) {
                        items.sort((a, b) -> {
                            for (int i = 0; i < order.size(); i++) {
                                int compared = a[i] == null ? (b[i] == null ? 0 : -1) : b[i] == null ? 1 : Values.compare(a[i], b[i]);
                                if (compared != 0) {
                                    return order.get(i).getDirection().isDescending() ? -compared : compared;
                                }
                            }
                            return 0;
                        });
                    }
                    StringBuilder text = new StringBuilder();
                    for (Object[] item : items) {
                        if (text.length() > 0) {
                            text.append((String) item[order.size() + 1]);
                        }
                        text.append((String) item[order.size()]);
                        if (text.length() >= GROUP_CONCAT_MAX_LENGTH) {
                            break;
                        }
                    }
                    // MySQL cuts the result at group_concat_max_len (1024 by default).
                    return text.length() > GROUP_CONCAT_MAX_LENGTH ? text.substring(0, GROUP_CONCAT_MAX_LENGTH) : text.toString();
                }
            };
            // Calcite's marker that a group exists (NOT IN and other sub-query rewrites): its literal, always.
            case "LITERAL_AGG" -> new Accumulator(call) {
                private final Object value = ExpressionCompiler.literalValue((RexLiteral) call.rexList.get(0));

                @Override
                void accept(Object[] values) {
                }

                @Override
                Object result() {
                    return value;
                }
            };
            default -> throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "aggregate " + name
                    + " is not supported yet");
        };
    }

    /**
     * Adds a row unless its FILTER column is not true, an argument is NULL (aggregates skip NULLs) or, for
     * DISTINCT, its arguments were seen.
     */
    final void add(Object[] row) {
        if (filter >= 0 && !Boolean.TRUE.equals(Values.truth(row[filter]))) {
            return;
        }
        Object[] values = new Object[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            values[i] = row[arguments[i]];
            if (values[i] == null && skipsNulls()) {
                return;
            }
        }
        if (distinctSeen != null && !distinctSeen.add(new GroupKey(values))) {
            return;
        }
        accept(values, row);
    }

    abstract void accept(Object[] values);

    /** Whether rows with a NULL argument are left out, as SQL's aggregates do (MySQL's JSON aggregates keep them). */
    boolean skipsNulls() {
        return true;
    }

    /** Adds a row's argument values; functions that also read other columns of the row (ORDER BY) override it. */
    void accept(Object[] values, Object[] row) {
        accept(values);
    }

    abstract Object result();
}
