package io.duetdb.sql.session;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;

import io.duetdb.common.catalog.CheckConstraint;
import io.duetdb.common.catalog.ColumnExpression;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.ddl.RowCompletion;
import io.duetdb.sql.exec.Coercion;
import io.duetdb.sql.exec.ExpressionCompiler;
import io.duetdb.sql.exec.RowExpression;
import io.duetdb.sql.parser.StatementParser;
import io.duetdb.sql.prepare.MySqlConditions;

/**
 * What writes of one table compute and test beyond the columns' types, compiled for one statement: the
 * expression defaults of columns a row leaves out, the generated columns, and the enforced CHECK constraints.
 * Rows are full rows (every column the table stores, in catalog order); the expressions read its public columns.
 */
final class WriteExpressions {
    private static final WriteExpressions NONE = new WriteExpressions(List.of(), List.of(), List.of(), List.of(),
            List.of(), new int[0]);

    /** Coerces a computed value into its column, as the statement coerces the values it is given. */
    @FunctionalInterface
    interface Coercer {
        Object coerce(Object value, ColumnInfo column, int rowNumber);
    }

    /** A computed column; {@code replacement} is the public column a column of a previous type is computed from. */
    private record Computed(ColumnInfo column, int position, int publicPosition, RowExpression expression,
            ColumnInfo replacement) {
    }

    private final List<Computed> defaults;
    private final List<Computed> generated;
    private final List<CheckConstraint> checks;
    private final List<RowExpression> conditions;
    private final List<ColumnInfo> columns;
    /** The row position of each public column. */
    private final int[] publicPositions;

    private WriteExpressions(List<Computed> defaults, List<Computed> generated, List<CheckConstraint> checks,
            List<RowExpression> conditions, List<ColumnInfo> columns, int[] publicPositions) {
        this.defaults = defaults;
        this.generated = generated;
        this.checks = checks;
        this.conditions = conditions;
        this.columns = columns;
        this.publicPositions = publicPositions;
    }

    /** The expressions of {@code table}, planned against its public columns; none when it has none. */
    static WriteExpressions of(Session session, TableInfo table) {
        if (!table.hasWriteExpressions()) {
            return NONE;
        }
        List<ColumnInfo> publicColumns = table.publicColumns();
        List<ColumnInfo> expressionColumns = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (ColumnInfo column : publicColumns) {
            if (column.defaultExpression() != null) {
                expressionColumns.add(column);
                texts.add("(" + column.expression().text() + ")");
            }
        }
        for (ColumnInfo column : table.columns()) {
            if (column.defaultExpression() != null && isBeingAdded(column)) {
                expressionColumns.add(column);
                texts.add("(" + column.expression().text() + ")");
            }
        }
        for (ColumnInfo column : publicColumns) {
            if (column.generated()) {
                expressionColumns.add(column);
                texts.add("(" + column.expression().text() + ")");
            }
        }
        // A column being added: writers compute it from the public columns before readers see it.
        for (ColumnInfo column : table.columns()) {
            if (column.generated() && isBeingAdded(column)) {
                expressionColumns.add(column);
                texts.add("(" + column.expression().text() + ")");
            }
        }
        List<CheckConstraint> checks = table.checks().stream().filter(CheckConstraint::enforced).toList();
        checks.forEach(check -> texts.add("(" + check.text() + ")"));
        if (texts.isEmpty()) {
            // Only a column still delete-only has an expression: writers store its original default.
            return NONE;
        }
        String database = session.manager().catalog().current().database(table.databaseId()).orElseThrow().name();
        SqlSelect select = (SqlSelect) StatementParser.parse("SELECT " + String.join(", ", texts) + " FROM `"
                + database.replace("`", "``") + "`.`" + table.name().replace("`", "``") + "`");
        SqlNodeList items = select.getSelectList();
        for (int i = expressionColumns.size(); i < items.size(); i++) {
            items.set(i, MySqlConditions.condition(items.get(i)));
        }
        RelNode plan = session.planner().plan(select).plan();
        if (!(plan instanceof Project project) || !(project.getInput() instanceof TableScan)) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "the expressions of table '" + table.name()
                    + "' need more than its row; they are not supported yet");
        }
        ExpressionCompiler compiler = new ExpressionCompiler(plan.getCluster().getRexBuilder(), session, List.of());
        List<Computed> defaults = new ArrayList<>();
        List<Computed> generated = new ArrayList<>();
        List<RowExpression> conditions = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            RowExpression expression = compiler.compile(project.getProjects().get(i));
            if (i < expressionColumns.size()) {
                ColumnInfo column = expressionColumns.get(i);
                Computed computed = new Computed(column, table.columns().indexOf(column), publicColumns.indexOf(column),
                        expression, replacement(column, publicColumns));
                (column.generated() ? generated : defaults).add(computed);
            } else {
                conditions.add(expression);
            }
        }
        int[] publicPositions = new int[publicColumns.size()];
        for (int i = 0; i < publicPositions.length; i++) {
            publicPositions[i] = table.columns().indexOf(publicColumns.get(i));
        }
        return new WriteExpressions(defaults, generated, checks, conditions, table.columns(), publicPositions);
    }

    /**
     * The session's completion of full rows, for DDL that computes a new generated column in the rows a table holds:
     * strictly, as an ALTER TABLE in strict mode (a value that does not fit fails it).
     */
    static RowCompletion completion(Session session) {
        return table -> {
            WriteExpressions expressions = of(session, table);
            return row -> expressions.completeBackfilled(row, (value, column, rowNumber) ->
                    Coercion.toColumn(value, column, null));
        };
    }

    /**
     * Completes a row the backfill of a column being added reads: its expression default when it holds none (the
     * row predates the column, or an UPDATE carried the missing value along), then what an update computes.
     */
    private void completeBackfilled(Object[] row, Coercer coercer) {
        if (isEmpty()) {
            return;
        }
        Object[] publicRow = publicRow(row);
        for (Computed computed : defaults) {
            if (computed.publicPosition() < 0 && row[computed.position()] == null) {
                set(computed, computed.expression().evaluate(publicRow), row, publicRow, 0, coercer);
            }
        }
        generate(row, publicRow, 0, coercer);
        check(publicRow);
    }

    boolean isEmpty() {
        return defaults.isEmpty() && generated.isEmpty() && conditions.isEmpty();
    }

    /**
     * Completes an inserted row: the expression defaults of the columns it leaves out ({@code given} false), then
     * the generated columns, then the CHECK constraints.
     */
    void completeInserted(Object[] row, boolean[] given, int rowNumber, Coercer coercer) {
        if (isEmpty()) {
            return;
        }
        Object[] publicRow = publicRow(row);
        for (Computed computed : defaults) {
            if (!given[computed.position()]) {
                set(computed, computed.expression().evaluate(publicRow), row, publicRow, rowNumber, coercer);
            }
        }
        generate(row, publicRow, rowNumber, coercer);
        check(publicRow);
    }

    /** Completes an updated row: its generated columns computed again, then the CHECK constraints. */
    void completeUpdated(Object[] row, int rowNumber, Coercer coercer) {
        if (isEmpty()) {
            return;
        }
        Object[] publicRow = publicRow(row);
        generate(row, publicRow, rowNumber, coercer);
        check(publicRow);
    }

    private void generate(Object[] row, Object[] publicRow, int rowNumber, Coercer coercer) {
        for (Computed computed : generated) {
            set(computed, computed.expression().evaluate(publicRow), row, publicRow, rowNumber, coercer);
        }
    }

    /** The public column a column of a previous type is computed from (its expression names it); else null. */
    private static ColumnInfo replacement(ColumnInfo column, List<ColumnInfo> publicColumns) {
        if (column.expression().kind() != ColumnExpression.Kind.PREVIOUS_TYPE) {
            return null;
        }
        String text = column.expression().text();
        String name = text.substring(1, text.length() - 1).replace("``", "`");
        return publicColumns.stream().filter(candidate -> candidate.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("column " + name + " of a type change is not public"));
    }

    private static void set(Computed computed, Object value, Object[] row, Object[] publicRow, int rowNumber,
            Coercer coercer) {
        ColumnInfo column = computed.column();
        if (computed.replacement() != null) {
            row[computed.position()] = previousType(computed, value, rowNumber, coercer);
            return;
        }
        if (value == null && column.notNull()) {
            throw new DuetException(ErrorCode.COLUMN_CANNOT_BE_NULL, "Column '" + column.name() + "' cannot be null");
        }
        Object stored = value == null ? null : coercer.coerce(value, column, rowNumber);
        row[computed.position()] = stored;
        if (computed.publicPosition() >= 0) {
            publicRow[computed.publicPosition()] = stored;
        }
    }

    /**
     * The value a column whose type is being changed keeps in its previous type, for servers that still read it:
     * exactly the new value, or the statement fails (a server carrying a converted value back would lose it).
     */
    private static Object previousType(Computed computed, Object value, int rowNumber, Coercer coercer) {
        if (value == null) {
            return null;
        }
        ColumnInfo replacement = computed.replacement();
        try {
            Object previous = coercer.coerce(value, computed.column(), rowNumber);
            Object back = coercer.coerce(previous, replacement, rowNumber);
            if (Arrays.deepEquals(new Object[] {back}, new Object[] {value})) {
                return previous;
            }
        } catch (DuetException e) {
            // As a value that converts back to another one.
        }
        throw new DuetException(ErrorCode.SCHEMA_CHANGED, "Column '" + replacement.name() + "' is changing its type"
                + " (ALTER TABLE ... MODIFY); until the change completes, its values must also fit its previous type:"
                + " retry the statement");
    }

    /** MySQL: a row violates a constraint whose condition is FALSE; UNKNOWN (NULL) passes. */
    private void check(Object[] publicRow) {
        for (int i = 0; i < conditions.size(); i++) {
            if (Boolean.FALSE.equals(conditions.get(i).evaluate(publicRow))) {
                throw new DuetException(ErrorCode.CHECK_CONSTRAINT_VIOLATED, "Check constraint '"
                        + checks.get(i).name() + "' is violated.");
            }
        }
    }

    private Object[] publicRow(Object[] row) {
        Object[] publicRow = new Object[publicPositions.length];
        for (int i = 0; i < publicPositions.length; i++) {
            publicRow[i] = row[publicPositions[i]];
        }
        return publicRow;
    }

    /** Whether the column at {@code position} is computed by this statement when a row leaves it out. */
    boolean computes(int position) {
        ColumnInfo column = columns.isEmpty() ? null : columns.get(position);
        return column != null && column.expression() != null
                && (column.state() == SchemaState.PUBLIC || isBeingAdded(column));
    }

    /** Write-only and reorganizing columns: every writer writes them, and the backfill computes the older rows. */
    private static boolean isBeingAdded(ColumnInfo column) {
        return column.state() == SchemaState.WRITE_ONLY || column.state() == SchemaState.WRITE_REORGANIZATION;
    }
}
