package io.duetdb.sql.prepare;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.SchemaState;

/**
 * The columns of a SELECT whose value is one per group, as MySQL 5.7.5+ derives them for ONLY_FULL_GROUP_BY
 * (functional dependencies): the grouped columns; columns equal to a constant in WHERE or an inner join's ON;
 * columns equal to a determined column there (an outer join's ON only from its preserved side to the other); and
 * every column of a table whose primary key, or a unique key of NOT NULL columns, is wholly determined.
 */
final class FunctionalDependencies {
    /** {@code from} determines {@code to}; both ways for the equalities of WHERE and inner joins. */
    private record Dependency(FromClause.Column from, FromClause.Column to) {
    }

    private final FromClause clause;
    private final List<Dependency> dependencies = new ArrayList<>();
    private final Set<FromClause.Column> constants = new HashSet<>();

    private FunctionalDependencies(FromClause clause) {
        this.clause = clause;
    }

    /** The dependencies the WHERE condition and the join conditions of {@code clause} give. */
    static FunctionalDependencies of(FromClause clause, SqlNode where) {
        FunctionalDependencies dependencies = new FunctionalDependencies(clause);
        if (where != null) {
            dependencies.addEqualities(where, null);
        }
        for (FromClause.JoinCondition join : clause.joinConditions()) {
            dependencies.addEqualities(join.condition(), join.inner() ? null : join.preserved());
        }
        return dependencies;
    }

    /** The columns whose value is one per group when {@code grouped} are grouped. */
    Set<FromClause.Column> determinedBy(Collection<FromClause.Column> grouped) {
        Set<FromClause.Column> determined = new HashSet<>(grouped);
        determined.addAll(constants);
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Dependency dependency : dependencies) {
                if (determined.contains(dependency.from()) && determined.add(dependency.to())) {
                    changed = true;
                }
            }
            for (FromClause.Source source : clause.sources()) {
                if (source.table() != null && keyDetermined(source, determined)) {
                    for (ColumnInfo column : source.table().publicColumns()) {
                        changed |= determined.add(new FromClause.Column(source, column.name()));
                    }
                }
            }
        }
        return determined;
    }

    private static boolean keyDetermined(FromClause.Source source, Set<FromClause.Column> determined) {
        for (IndexInfo index : source.table().indexes()) {
            if (!index.unique() || index.state() != SchemaState.PUBLIC) {
                continue;
            }
            boolean key = true;
            for (String name : index.columns()) {
                Optional<ColumnInfo> column = source.table().column(name);
                key &= column.isPresent() && (index.primary() || column.get().notNull())
                        && determined.contains(new FromClause.Column(source, name));
            }
            if (key) {
                return true;
            }
        }
        return false;
    }

    /**
     * The equalities among the conjuncts of a condition: column = constant, and column = column. When
     * {@code preserved} is given (an outer join's ON), only a column of a preserved source determines one of
     * another source, and constants determine nothing.
     */
    private void addEqualities(SqlNode condition, List<FromClause.Source> preserved) {
        if (condition.getKind() == SqlKind.AND) {
            for (SqlNode operand : ((SqlCall) condition).getOperandList()) {
                addEqualities(operand, preserved);
            }
            return;
        }
        if (condition.getKind() != SqlKind.EQUALS) {
            return;
        }
        SqlNode left = ((SqlCall) condition).operand(0);
        SqlNode right = ((SqlCall) condition).operand(1);
        Optional<FromClause.Column> leftColumn = column(left);
        Optional<FromClause.Column> rightColumn = column(right);
        if (leftColumn.isPresent() && rightColumn.isPresent()) {
            addEquality(leftColumn.get(), rightColumn.get(), preserved);
            addEquality(rightColumn.get(), leftColumn.get(), preserved);
        } else if (preserved == null && leftColumn.isPresent() && isConstant(right)) {
            constants.add(leftColumn.get());
        } else if (preserved == null && rightColumn.isPresent() && isConstant(left)) {
            constants.add(rightColumn.get());
        }
    }

    private void addEquality(FromClause.Column from, FromClause.Column to, List<FromClause.Source> preserved) {
        if (preserved == null || preserved.contains(from.source()) && !preserved.contains(to.source())) {
            dependencies.add(new Dependency(from, to));
        }
    }

    private Optional<FromClause.Column> column(SqlNode node) {
        return node instanceof SqlIdentifier identifier ? clause.resolve(identifier) : Optional.empty();
    }

    /** A literal other than NULL, a placeholder, or a sign in front of one. */
    private static boolean isConstant(SqlNode node) {
        if (node instanceof SqlLiteral literal) {
            return literal.getTypeName() != SqlTypeName.NULL;
        }
        if (node instanceof SqlDynamicParam) {
            return true;
        }
        if ((node.getKind() == SqlKind.MINUS_PREFIX || node.getKind() == SqlKind.PLUS_PREFIX) && node instanceof SqlCall call) {
            return isConstant(call.operand(0));
        }
        return false;
    }
}
