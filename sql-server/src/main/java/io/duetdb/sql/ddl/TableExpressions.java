package io.duetdb.sql.ddl;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import io.duetdb.common.catalog.CheckConstraint;
import io.duetdb.common.catalog.ColumnExpression;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.parser.StatementParser;
import io.duetdb.sql.parser.UserVariables;
import io.duetdb.sql.parser.ddl.SqlCheckConstraint;
import io.duetdb.sql.prepare.CalciteCatalog;
import io.duetdb.sql.prepare.QueryPlanner;

/**
 * The expressions of a table definition (generated columns, expression defaults, CHECK constraints) checked as
 * MySQL 8.0 checks them before a table is created or altered: what they may refer to, which functions they may
 * call, and that they plan against the table's columns.
 */
final class TableExpressions {
    /** Functions whose value depends on more than their arguments: refused in generated columns and checks. */
    private static final Set<String> NONDETERMINISTIC = Set.of("NOW", "CURRENT_TIMESTAMP", "LOCALTIME",
            "LOCALTIMESTAMP", "CURDATE", "CURRENT_DATE", "CURTIME", "CURRENT_TIME", "SYSDATE", "UTC_DATE", "UTC_TIME",
            "UTC_TIMESTAMP", "UNIX_TIMESTAMP", "RAND", "UUID", "UUID_SHORT", "CONNECTION_ID", "CURRENT_USER", "USER",
            "SESSION_USER", "SYSTEM_USER", "DATABASE", "SCHEMA", "LAST_INSERT_ID", "FOUND_ROWS", "ROW_COUNT", "SLEEP",
            "BENCHMARK", "GET_LOCK", "RELEASE_LOCK", "IS_FREE_LOCK", "IS_USED_LOCK", "VERSION", "TIDB_VERSION",
            "CURRENT_ROLE", "ROLES_GRAPHML", "LOAD_FILE", "MASTER_POS_WAIT", "NAME_CONST");

    private TableExpressions() {
    }

    /** What an expression refers to and calls, read from its text. */
    private record Parts(SqlNode expression, Set<String> columns, String disallowedFunction, boolean subquery,
            boolean variable) {
    }

    private static Parts parts(String text) {
        SqlNode parsed = StatementParser.parse("SELECT " + text);
        SqlNode expression = ((SqlSelect) parsed).getSelectList().get(0);
        Set<String> columns = new LinkedHashSet<>();
        String[] function = new String[1];
        boolean[] subquery = new boolean[1];
        boolean[] variable = new boolean[1];
        expression.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                columns.add(id.names.get(id.names.size() - 1).toLowerCase(Locale.ROOT));
                return null;
            }

            @Override
            public Void visit(SqlDynamicParam param) {
                variable[0] = true;
                return null;
            }

            @Override
            public Void visit(SqlCall call) {
                if (call.getKind().belongsTo(SqlKind.QUERY)) {
                    subquery[0] = true;
                    return null;
                }
                if (UserVariables.name(call) != null) {
                    variable[0] = true;
                    return null;
                }
                String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
                if (function[0] == null && NONDETERMINISTIC.contains(name)) {
                    function[0] = name.toLowerCase(Locale.ROOT);
                }
                return super.visit(call);
            }
        });
        return new Parts(expression, columns, function[0], subquery[0], variable[0]);
    }

    /**
     * Checks the generated columns and expression defaults of {@code columns} (in position order) as MySQL does.
     */
    static void checkColumns(List<ColumnInfo> columns) {
        Set<String> names = new HashSet<>();
        columns.forEach(column -> names.add(column.name().toLowerCase(Locale.ROOT)));
        for (int i = 0; i < columns.size(); i++) {
            ColumnInfo column = columns.get(i);
            ColumnExpression expression = column.expression();
            if (expression == null) {
                continue;
            }
            Parts parts = parts(expression.text());
            for (String referenced : parts.columns()) {
                if (!names.contains(referenced)) {
                    throw new DuetException(ErrorCode.UNKNOWN_COLUMN, "Unknown column '" + referenced + "' in '"
                            + (expression.generated() ? "generated column function" : "default value expression")
                            + "'");
                }
                int at = indexOf(columns, referenced);
                ColumnInfo target = columns.get(at);
                if (target.autoIncrement()) {
                    if (expression.generated()) {
                        throw new DuetException(ErrorCode.GENERATED_COLUMN_REFERS_AUTO_INCREMENT, "Generated column '"
                                + column.name() + "' cannot refer to auto-increment column.");
                    }
                    throw new DuetException(ErrorCode.DEFAULT_EXPRESSION_DISALLOWED, "Default value expression of"
                            + " column '" + column.name() + "' cannot refer to an auto-increment column.");
                }
                if (target.expression() != null && at >= i && (expression.generated() == target.generated())) {
                    if (expression.generated()) {
                        throw new DuetException(ErrorCode.GENERATED_COLUMN_NON_PRIOR, "Generated column can refer only"
                                + " to generated columns defined prior to it.");
                    }
                    throw new DuetException(ErrorCode.DEFAULT_EXPRESSION_DISALLOWED, "Default value expression of"
                            + " column '" + column.name() + "' cannot refer to a column defined after it that has"
                            + " an expression default.");
                }
            }
            if (expression.generated()) {
                if (parts.subquery() || parts.variable() || parts.disallowedFunction() != null) {
                    throw new DuetException(ErrorCode.GENERATED_COLUMN_FUNCTION_NOT_ALLOWED, "Expression of"
                            + " generated column '" + column.name() + "' contains a disallowed function"
                            + (parts.disallowedFunction() == null ? "." : ": " + parts.disallowedFunction() + "."));
                }
            } else if (parts.subquery() || parts.variable()) {
                throw new DuetException(ErrorCode.DEFAULT_EXPRESSION_DISALLOWED, "Default value expression of column '"
                        + column.name() + "' contains a disallowed function.");
            }
        }
    }

    /**
     * The CHECK constraints of a new table: written ones named as MySQL names them ({@code table_chk_n}), each name
     * unique in the database ({@code taken}: names in use, lower case). {@code columnOf} gives the column a
     * column-level constraint was written on (null for a table-level one).
     */
    static List<CheckConstraint> checks(String table, List<SqlCheckConstraint> written, List<String> columnOf,
            List<ColumnInfo> columns, Set<String> taken) {
        List<CheckConstraint> checks = new ArrayList<>();
        int generated = 0;
        for (int i = 0; i < written.size(); i++) {
            SqlCheckConstraint check = written.get(i);
            String name;
            if (check.name() != null) {
                name = check.name().getSimple();
            } else {
                do {
                    name = table + "_chk_" + ++generated;
                } while (taken.contains(name.toLowerCase(Locale.ROOT)));
            }
            if (!taken.add(name.toLowerCase(Locale.ROOT))) {
                throw new DuetException(ErrorCode.CHECK_CONSTRAINT_DUPLICATE_NAME, "Duplicate check constraint name '"
                        + name + "'.");
            }
            CheckConstraint constraint = new CheckConstraint(name, check.text(), check.enforced());
            checkConstraint(constraint, columnOf.get(i), columns);
            checks.add(constraint);
        }
        return checks;
    }

    /** Checks what a CHECK constraint refers to and calls; {@code column} is its column when written on one. */
    static void checkConstraint(CheckConstraint check, String column, List<ColumnInfo> columns) {
        Parts parts = parts(check.text());
        for (String referenced : parts.columns()) {
            int at = indexOf(columns, referenced);
            if (at < 0) {
                throw new DuetException(ErrorCode.CHECK_CONSTRAINT_UNKNOWN_COLUMN, "Check constraint '" + check.name()
                        + "' refers to non-existing column '" + referenced + "'.");
            }
            if (column != null && !referenced.equalsIgnoreCase(column)) {
                throw new DuetException(ErrorCode.CHECK_CONSTRAINT_OTHER_COLUMN, "Column check constraint '"
                        + check.name() + "' references other column.");
            }
            if (columns.get(at).autoIncrement()) {
                throw new DuetException(ErrorCode.CHECK_CONSTRAINT_AUTO_INCREMENT, "Check constraint '" + check.name()
                        + "' cannot refer to an auto-increment column.");
            }
        }
        if (parts.variable()) {
            throw new DuetException(ErrorCode.CHECK_CONSTRAINT_VARIABLES, "An expression of a check constraint '"
                    + check.name() + "' cannot refer to a user or system variable.");
        }
        if (parts.disallowedFunction() != null) {
            throw new DuetException(ErrorCode.CHECK_CONSTRAINT_NAMED_FUNCTION, "An expression of a check constraint '"
                    + check.name() + "' contains disallowed function: " + parts.disallowedFunction() + ".");
        }
        if (parts.subquery()) {
            throw new DuetException(ErrorCode.CHECK_CONSTRAINT_FUNCTION, "An expression of a check constraint '"
                    + check.name() + "' contains disallowed function.");
        }
    }

    /**
     * Refuses to drop or rename {@code column} while a generated column, an expression default or a CHECK
     * constraint of the table refers to it.
     */
    static void checkNoDependents(TableInfo table, ColumnInfo column) {
        String name = column.name().toLowerCase(Locale.ROOT);
        for (ColumnInfo other : table.columns()) {
            if (other.expression() != null && other.id() != column.id()
                    && parts(other.expression().text()).columns().contains(name)) {
                throw new DuetException(ErrorCode.GENERATED_COLUMN_DEPENDENCY, "Column '" + column.name()
                        + "' has a generated column dependency.");
            }
        }
        for (CheckConstraint check : table.checks()) {
            if (parts(check.text()).columns().contains(name)) {
                throw new DuetException(ErrorCode.CHECK_CONSTRAINT_COLUMN_DEPENDENCY, "Check constraint '"
                        + check.name() + "' uses column '" + column.name() + "', hence column cannot be dropped or"
                        + " renamed.");
            }
        }
    }

    /**
     * Plans every expression of {@code table} (as it would be created in {@code database}) against its columns, so
     * that a type error or an unknown function is reported by the DDL rather than by the first write.
     */
    static void plan(DatabaseInfo database, TableInfo table) {
        List<String> texts = new ArrayList<>();
        for (ColumnInfo column : table.columns()) {
            if (column.expression() != null) {
                texts.add("(" + column.expression().text() + ")");
            }
        }
        table.checks().forEach(check -> texts.add("(" + check.text() + ")"));
        if (texts.isEmpty()) {
            return;
        }
        InfoSchema schema = new InfoSchema(0, List.of(database), List.of(table));
        SqlNode select = StatementParser.parse("SELECT " + String.join(", ", texts) + " FROM `"
                + database.name().replace("`", "``") + "`.`" + table.name().replace("`", "``") + "`");
        new QueryPlanner(new CalciteCatalog(schema), database.name()).plan(select);
    }

    private static int indexOf(List<ColumnInfo> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }
}
