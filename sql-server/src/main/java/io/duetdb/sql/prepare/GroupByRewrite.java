package io.duetdb.sql.prepare;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlNameMatchers;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.InfoSchema;

/**
 * MySQL's GROUP BY rules on the parsed query, before Calcite's validator (which accepts only grouped columns):
 * in a SELECT that aggregates, a column of its FROM clause that is not grouped but functionally dependent on the
 * grouped ones ({@link FunctionalDependencies}) — or any such column when sql_mode lacks ONLY_FULL_GROUP_BY — is
 * read as {@code MIN(column)} in the select list, HAVING and ORDER BY. Every row of a group holds the same value of
 * a dependent column, so its minimum is that value and the groups stay as they are; without ONLY_FULL_GROUP_BY
 * MySQL promises only some value of the group, which the minimum is. {@code ANY_VALUE(x)} is read the same way in
 * a SELECT that aggregates and as {@code x} in one that does not (it is no aggregate in MySQL). Columns that
 * stay ungrouped are left to the validator, and their MySQL error (1055, or 1140 without GROUP BY) is kept here
 * for {@link ValidationErrors} to report.
 */
final class GroupByRewrite {
    private static final String ANY_VALUE = "ANY_VALUE";

    /** A column left ungrouped, where it stands in the query, with the error MySQL reports for it. */
    record Violation(SqlParserPos position, DuetException error) {
        Violation {
            requireNonNull(position, "position is null");
            requireNonNull(error, "error is null");
        }
    }

    private final InfoSchema schema;
    private final String defaultDatabase;
    private final boolean onlyFullGroupBy;
    private final SqlOperatorTable operators;
    private final List<Violation> violations = new ArrayList<>();
    private final Set<SqlSelect> rewritten = Collections.newSetFromMap(new IdentityHashMap<>());

    GroupByRewrite(InfoSchema schema, String defaultDatabase, boolean onlyFullGroupBy, SqlOperatorTable operators) {
        this.schema = requireNonNull(schema, "schema is null");
        this.defaultDatabase = defaultDatabase;
        this.onlyFullGroupBy = onlyFullGroupBy;
        this.operators = requireNonNull(operators, "operators is null");
    }

    /** Rewrites every SELECT of {@code query}, sub-queries included, in place. */
    void rewrite(SqlNode query) {
        query.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlOrderBy orderBy && orderBy.query instanceof SqlSelect select) {
                    rewrite(select, orderBy.orderList);
                } else if (call instanceof SqlSelect select) {
                    rewrite(select, select.getOrderList());
                }
                return super.visit(call);
            }
        });
    }

    /** The columns left ungrouped, in the order the query names them. */
    List<Violation> violations() {
        return violations;
    }

    private void rewrite(SqlSelect select, SqlNodeList orderList) {
        if (!rewritten.add(select)) {
            return;
        }
        SqlNodeList group = select.getGroup();
        boolean explicitGroups = group != null && !group.isEmpty();
        boolean aggregates = explicitGroups || select.getHaving() != null || containsAggregate(select.getSelectList())
                || orderList != null && containsAggregate(orderList);
        SqlShuttle withoutAnyValue = new AnyValueRemover();
        if (select.getWhere() != null) {
            select.setWhere(select.getWhere().accept(withoutAnyValue));
        }
        if (!aggregates) {
            replaceAll(select.getSelectList(), withoutAnyValue);
            if (orderList != null) {
                replaceAll(orderList, withoutAnyValue);
            }
            return;
        }
        FromClause from = FromClause.of(select.getFrom(), schema, defaultDatabase);
        from.expandStars(select.getSelectList().getList())
                .ifPresent(items -> select.setSelectList(new SqlNodeList(items, select.getSelectList().getParserPosition())));
        Set<FromClause.Column> grouped = groupedColumns(select, from);
        Set<FromClause.Column> determined = onlyFullGroupBy
                ? FunctionalDependencies.of(from, select.getWhere()).determinedBy(grouped) : null;
        Set<String> aliases = aliases(select.getSelectList());
        SqlNodeList items = select.getSelectList();
        for (int i = 0; i < items.size(); i++) {
            SqlNode item = items.get(i);
            Rewriter rewriter = new Rewriter(from, grouped, determined, Set.of(), explicitGroups, "SELECT list", i + 1);
            if (item.getKind() == SqlKind.AS) {
                SqlCall as = (SqlCall) item;
                as.setOperand(0, as.operand(0).accept(rewriter));
            } else {
                SqlNode replaced = item.accept(rewriter);
                if (replaced != item && item instanceof SqlIdentifier identifier) {
                    // The column keeps its name: MIN(c) AS c.
                    replaced = SqlStdOperatorTable.AS.createCall(item.getParserPosition(), replaced,
                            new SqlIdentifier(identifier.names.get(identifier.names.size() - 1),
                                    identifier.getParserPosition()));
                }
                items.set(i, replaced);
            }
        }
        if (select.getHaving() != null) {
            select.setHaving(select.getHaving().accept(
                    new Rewriter(from, grouped, determined, aliases, explicitGroups, "HAVING clause", 1)));
        }
        if (orderList != null) {
            for (int i = 0; i < orderList.size(); i++) {
                orderList.set(i, orderList.get(i).accept(
                        new Rewriter(from, grouped, determined, aliases, explicitGroups, "ORDER BY clause", i + 1)));
            }
        }
    }

    private static void replaceAll(SqlNodeList list, SqlShuttle shuttle) {
        for (int i = 0; i < list.size(); i++) {
            list.set(i, list.get(i).accept(shuttle));
        }
    }

    /** The grouped columns: GROUP BY items that name a column, directly, by a select item's alias or by ordinal. */
    private static Set<FromClause.Column> groupedColumns(SqlSelect select, FromClause from) {
        Set<FromClause.Column> grouped = new HashSet<>();
        if (select.getGroup() == null) {
            return grouped;
        }
        for (SqlNode item : select.getGroup()) {
            SqlNode expression = item;
            if (item instanceof SqlIdentifier identifier) {
                Optional<FromClause.Column> column = from.resolve(identifier);
                if (column.isPresent()) {
                    grouped.add(column.get());
                    continue;
                }
                expression = identifier.isSimple() ? aliased(select.getSelectList(), identifier.getSimple()) : null;
            } else if (item instanceof SqlNumericLiteral ordinal && ordinal.isInteger()) {
                int position = ordinal.intValue(false);
                expression = position >= 1 && position <= select.getSelectList().size()
                        ? stripAs(select.getSelectList().get(position - 1)) : null;
            }
            if (expression instanceof SqlIdentifier identifier) {
                from.resolve(identifier).ifPresent(grouped::add);
            }
        }
        return grouped;
    }

    private static SqlNode aliased(SqlNodeList items, String alias) {
        for (SqlNode item : items) {
            if (item.getKind() == SqlKind.AS && ((SqlCall) item).operand(1) instanceof SqlIdentifier name
                    && name.getSimple().equalsIgnoreCase(alias)) {
                return ((SqlCall) item).operand(0);
            }
        }
        return null;
    }

    private static SqlNode stripAs(SqlNode item) {
        return item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
    }

    /** The names select items go by (HAVING and ORDER BY may use them): aliases and bare columns' names. */
    private static Set<String> aliases(SqlNodeList items) {
        Set<String> aliases = new HashSet<>();
        for (SqlNode item : items) {
            if (item.getKind() == SqlKind.AS && ((SqlCall) item).operand(1) instanceof SqlIdentifier alias) {
                aliases.add(alias.getSimple().toLowerCase(Locale.ROOT));
            } else if (item instanceof SqlIdentifier identifier && !identifier.isStar()) {
                aliases.add(identifier.names.get(identifier.names.size() - 1).toLowerCase(Locale.ROOT));
            }
        }
        return aliases;
    }

    private boolean containsAggregate(SqlNode node) {
        boolean[] found = {false};
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (found[0] || isQuery(call)) {
                    return null;
                }
                if (call.getKind() == SqlKind.OVER) {
                    // A window function does not make the SELECT aggregate; its arguments might.
                    for (SqlNode operand : call.getOperandList().subList(1, call.operandCount())) {
                        if (operand != null) {
                            operand.accept(this);
                        }
                    }
                    return null;
                }
                if (isAggregate(call)) {
                    found[0] = true;
                    return null;
                }
                return super.visit(call);
            }
        });
        return found[0];
    }

    private static boolean isQuery(SqlCall call) {
        return call instanceof SqlSelect || call instanceof SqlOrderBy || call.getKind().belongsTo(SqlKind.QUERY);
    }

    private static boolean isAnyValue(SqlCall call) {
        return call.operandCount() == 1 && call.getOperator().getName().equalsIgnoreCase(ANY_VALUE);
    }

    private boolean isAggregate(SqlCall call) {
        SqlOperator operator = call.getOperator();
        if (isAnyValue(call)) {
            return false;
        }
        if (!(operator instanceof SqlUnresolvedFunction)) {
            return operator.isAggregator();
        }
        List<SqlOperator> overloads = new ArrayList<>();
        operators.lookupOperatorOverloads(operator.getNameAsId(), SqlFunctionCategory.USER_DEFINED_FUNCTION,
                SqlSyntax.FUNCTION, overloads, SqlNameMatchers.withCaseSensitive(false));
        return overloads.stream().anyMatch(SqlOperator::isAggregator);
    }

    /** ANY_VALUE(x) as x, outside sub-queries. */
    private final class AnyValueRemover extends SqlShuttle {
        @Override
        public SqlNode visit(SqlCall call) {
            if (isQuery(call)) {
                return call;
            }
            if (isAnyValue(call)) {
                return call.operand(0).accept(this);
            }
            return super.visit(call);
        }
    }

    /** One expression of an aggregating SELECT with its ungrouped columns read as MIN(column). */
    private final class Rewriter extends SqlShuttle {
        private final FromClause from;
        private final Set<FromClause.Column> grouped;
        private final Set<FromClause.Column> determined;
        private final Set<String> aliases;
        private final boolean explicitGroups;
        private final String clause;
        private final int number;
        private boolean reported;

        Rewriter(FromClause from, Set<FromClause.Column> grouped, Set<FromClause.Column> determined, Set<String> aliases,
                boolean explicitGroups, String clause, int number) {
            this.from = from;
            this.grouped = grouped;
            this.determined = determined;
            this.aliases = aliases;
            this.explicitGroups = explicitGroups;
            this.clause = clause;
            this.number = number;
        }

        @Override
        public SqlNode visit(SqlIdentifier identifier) {
            if (identifier.isSimple() && aliases.contains(identifier.getSimple().toLowerCase(Locale.ROOT))) {
                return identifier;
            }
            Optional<FromClause.Column> resolved = from.resolve(identifier);
            if (resolved.isEmpty() || grouped.contains(resolved.get())) {
                return identifier;
            }
            if (determined == null || determined.contains(resolved.get())) {
                return SqlStdOperatorTable.MIN.createCall(identifier.getParserPosition(), identifier);
            }
            if (!reported) {
                reported = true;
                violations.add(new Violation(identifier.getParserPosition(), error(resolved.get())));
            }
            return identifier;
        }

        private DuetException error(FromClause.Column column) {
            if (explicitGroups) {
                return new DuetException(ErrorCode.WRONG_FIELD_WITH_GROUP, "Expression #" + number + " of " + clause
                        + " is not in GROUP BY clause and contains nonaggregated column '" + column.qualifiedName()
                        + "' which is not functionally dependent on columns in GROUP BY clause; this is incompatible"
                        + " with sql_mode=only_full_group_by");
            }
            return new DuetException(ErrorCode.MIX_OF_GROUP_FUNC_AND_FIELDS, "In aggregated query without GROUP BY,"
                    + " expression #" + number + " of " + clause + " contains nonaggregated column '"
                    + column.qualifiedName() + "'; this is incompatible with sql_mode=only_full_group_by");
        }

        @Override
        public SqlNode visit(SqlCall call) {
            if (isQuery(call)) {
                return call;
            }
            if (isAnyValue(call)) {
                SqlNode argument = call.operand(0).accept(new AnyValueRemover());
                return SqlStdOperatorTable.MIN.createCall(call.getParserPosition(), argument);
            }
            if (isAggregate(call)) {
                return call.accept(new AnyValueRemover());
            }
            return super.visit(call);
        }
    }
}
