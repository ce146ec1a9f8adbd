package io.duetdb.sql.prepare;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.validate.SqlNameMatcher;

/**
 * An operator table without Calcite's parenthesis-less functions that MySQL calls only with parentheses. Calcite's
 * validator reads an unquoted identifier that names such a function as a call of it before it looks for a column,
 * so a column named {@code user} read the session's user; in MySQL {@code user} is the column and {@code USER()}
 * the function (which DuetDB's operators define).
 */
final class ColumnsBeforeNiladicFunctions implements SqlOperatorTable {
    private static final Set<String> CALLED_WITH_PARENTHESES = Set.of("USER");

    private final SqlOperatorTable operators;

    ColumnsBeforeNiladicFunctions(SqlOperatorTable operators) {
        this.operators = requireNonNull(operators, "operators is null");
    }

    @Override
    public void lookupOperatorOverloads(SqlIdentifier opName, SqlFunctionCategory category, SqlSyntax syntax,
            List<SqlOperator> operatorList, SqlNameMatcher nameMatcher) {
        int before = operatorList.size();
        operators.lookupOperatorOverloads(opName, category, syntax, operatorList, nameMatcher);
        operatorList.subList(before, operatorList.size()).removeIf(ColumnsBeforeNiladicFunctions::hidden);
    }

    @Override
    public List<SqlOperator> getOperatorList() {
        return operators.getOperatorList().stream().filter(operator -> !hidden(operator)).toList();
    }

    private static boolean hidden(SqlOperator operator) {
        return operator.getSyntax() == SqlSyntax.FUNCTION_ID
                && CALLED_WITH_PARENTHESES.contains(operator.getName().toUpperCase(Locale.ROOT));
    }
}
