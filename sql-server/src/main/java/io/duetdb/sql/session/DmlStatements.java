package io.duetdb.sql.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.common.catalog.CatalogRecords;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.Handle;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.sql.exec.Coercion;
import io.duetdb.sql.exec.ExpressionCompiler;
import io.duetdb.sql.exec.PlanExecutor;
import io.duetdb.sql.exec.RowExpression;
import io.duetdb.sql.exec.RowWriter;
import io.duetdb.sql.exec.TableAccess;
import io.duetdb.sql.exec.TableReader;
import io.duetdb.sql.exec.Values;
import io.duetdb.sql.parser.StatementParser;
import io.duetdb.sql.prepare.MySqlConditions;
import io.duetdb.sql.prepare.QueryPlanner;

/**
 * INSERT, REPLACE, UPDATE and DELETE in a transaction. Expressions go through Calcite (validated against the
 * table); rows are read, checked and written by the executor's table access, which maintains indexes.
 */
final class DmlStatements {
    private static final Object DEFAULT = new Object();

    private final Session session;
    private final Transaction transaction;
    /** A prepared statement's values, which its VALUES placeholders read directly. */
    private final List<Object> parameters;

    /** {@code transaction} is null only for planning prepared statements. */
    DmlStatements(Session session, Transaction transaction) {
        this(session, transaction, List.of());
    }

    DmlStatements(Session session, Transaction transaction, List<Object> parameters) {
        this.session = session;
        this.transaction = transaction;
        this.parameters = parameters;
    }

    /**
     * Whether a prepared INSERT can take its values straight from the parameters (plain VALUES rows of literals
     * and placeholders, no ON DUPLICATE KEY UPDATE); otherwise it is bound into its text.
     */
    static boolean insertsDirectly(io.duetdb.sql.parser.dml.SqlMySqlInsert insert, List<Object> parameters) {
        if (insert.onDuplicate() != null || insert.source().getKind() != SqlKind.VALUES) {
            return false;
        }
        for (SqlNode row : ((SqlCall) insert.source()).getOperandList()) {
            for (SqlNode value : ((SqlCall) row).getOperandList()) {
                Object bound = value instanceof org.apache.calcite.sql.SqlDynamicParam parameter
                        ? parameterValue(parameters.get(parameter.getIndex())) : literal(value, List.of());
                if (bound == NOT_LITERAL) {
                    return false;
                }
            }
        }
        return true;
    }

    /** A parameter as {@link #literal} reads the text it would be bound as (see ParameterBinder). */
    private static Object parameterValue(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Long || value instanceof Integer || value instanceof java.math.BigDecimal) {
            java.math.BigDecimal decimal = Values.toDecimal(value);
            return decimal.scale() <= 0 && decimal.toBigInteger().bitLength() < 63 ? (Object) decimal.longValueExact()
                    : decimal;
        }
        if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            return Double.isNaN(number) || Double.isInfinite(number) ? NOT_LITERAL : (Object) number;
        }
        if (value instanceof String text) {
            return text;
        }
        // Bytes, times and dates take the text path, which knows their literal forms.
        return NOT_LITERAL;
    }

    // ---- INSERT / REPLACE ----

    StatementResult insert(io.duetdb.sql.parser.dml.SqlMySqlInsert insert) {
        ignoreConversionErrors = insert.ignore();
        TableInfo table = table(insert.table(), insert.replace() ? "REPLACE" : "INSERT");
        session.writing(table);
        String databaseName = session.qualifiedName(insert.table())[0];
        session.require(Privilege.INSERT, databaseName, table.name());
        if (insert.replace()) {
            session.require(Privilege.DELETE, databaseName, table.name());
        }
        if (insert.onDuplicate() != null) {
            session.require(Privilege.UPDATE, databaseName, table.name());
        }
        List<ColumnInfo> publicColumns = table.publicColumns();
        OnDuplicate onDuplicate = insert.onDuplicate() == null ? null : onDuplicate(insert, table);
        List<ColumnInfo> targets = new ArrayList<>();
        if (insert.columns() == null) {
            targets.addAll(publicColumns);
        } else {
            for (SqlNode node : insert.columns()) {
                targets.add(publicColumn(table, ((SqlIdentifier) node).getSimple()));
            }
        }
        List<Object[]> rows = sourceRows(insert.source(), targets.size());
        return insertRows(table, targets, rows, insert.replace(), insert.ignore(), onDuplicate);
    }

    /** LOAD DATA's rows: INSERT, REPLACE or INSERT IGNORE of text values for {@code targets}. */
    UpdateResult insertRows(TableInfo table, List<ColumnInfo> targets, List<Object[]> rows, boolean replace,
            boolean ignore) {
        return insertRows(table, targets, rows, replace, ignore, null);
    }

    /**
     * Inserts rows of values for {@code targets} (text or typed values, converted as INSERT converts literals;
     * columns left out take their defaults), with REPLACE, IGNORE or ON DUPLICATE KEY UPDATE semantics. Also LOAD
     * DATA's way in.
     */
    private UpdateResult insertRows(TableInfo table, List<ColumnInfo> targets, List<Object[]> rows, boolean replace,
            boolean ignore, OnDuplicate onDuplicate) {
        ignoreConversionErrors = ignore;
        TableAccess access = new TableAccess(table);
        RowWriter writer = new RowWriter(transaction, access, session.foreignKeys(transaction));
        WriteExpressions expressions = WriteExpressions.of(session, table);
        for (ColumnInfo target : targets) {
            if (target.generated() && rows.stream().anyMatch(values -> values[targets.indexOf(target)] != DEFAULT)) {
                if (ignore || !session.strictMode()) {
                    // As MariaDB does outside strict mode (its dumps list every column): the value is ignored.
                    session.addWarning(ErrorCode.GENERATED_COLUMN_VALUE_NOT_ALLOWED, "The value specified for"
                            + " generated column '" + target.name() + "' in table '" + table.name()
                            + "' has been ignored");
                    int index = targets.indexOf(target);
                    rows.forEach(values -> values[index] = DEFAULT);
                } else {
                    throw generatedValue(target, table);
                }
            }
        }
        long affected = 0;
        long firstGenerated = 0;
        List<Object[]> fullRows = new ArrayList<>(rows.size());
        List<Handle> handles = new ArrayList<>(rows.size());
        int rowNumber = 0;
        for (Object[] values : rows) {
            rowNumber++;
            Object[] row = new Object[table.columns().size()];
            boolean[] given = new boolean[row.length];
            for (int i = 0; i < targets.size(); i++) {
                int position = table.columns().indexOf(targets.get(i));
                if (values[i] != DEFAULT) {
                    row[position] = values[i];
                    given[position] = true;
                }
            }
            long generated = fillRow(table, row, given, rowNumber, expressions);
            if (generated != 0 && firstGenerated == 0) {
                firstGenerated = generated;
            }
            try {
                expressions.completeInserted(row, given, rowNumber, this::coerce);
            } catch (DuetException e) {
                if (ignore && e.code() == ErrorCode.CHECK_CONSTRAINT_VIOLATED) {
                    // INSERT IGNORE: a row that violates a CHECK constraint is skipped with a warning.
                    session.addWarning(e.code(), e.getMessage());
                    continue;
                }
                throw e;
            }
            fullRows.add(row);
            handles.add(handle(table, access, row));
        }
        boolean plain = onDuplicate == null && !replace && !ignore;
        if (plain && session.checksKeysAtPrewrite() && transaction.mode() == TxnMode.OPTIMISTIC) {
            for (int r = 0; r < fullRows.size(); r++) {
                Optional<RowWriter.Conflict> duplicate = writer.insertCheckedAtPrewrite(handles.get(r), fullRows.get(r));
                if (duplicate.isPresent()) {
                    throw duplicate.get().toError(table.name());
                }
            }
            return inserted(table, rows.size(), rows.size(), firstGenerated);
        }
        if (onDuplicate == null && !replace) {
            writer.prefetchKeyChecks(fullRows, handles);
        }
        rowNumber = 0;
        for (int r = 0; r < fullRows.size(); r++) {
            rowNumber++;
            Object[] row = fullRows.get(r);
            Handle handle = handles.get(r);
            Optional<RowWriter.Conflict> conflict = writer.findConflict(row, handle);
            if (conflict.isPresent()) {
                if (onDuplicate != null) {
                    affected += onDuplicate.apply(conflict.get().handle(), row, access, writer, table, rowNumber,
                            expressions);
                    continue;
                }
                if (replace) {
                    while (conflict.isPresent()) {
                        Handle other = conflict.get().handle();
                        Optional<byte[]> old = transaction.get(access.rowKey(other));
                        if (old.isPresent()) {
                            writer.delete(other, access.decode(old.get()));
                            affected++;
                        }
                        conflict = writer.findConflict(row, handle);
                        if (conflict.isPresent() && conflict.get().handle().equals(other)) {
                            break;
                        }
                    }
                } else if (ignore) {
                    DuetException duplicate = conflict.get().toError(table.name());
                    session.addWarning(duplicate.code(), duplicate.getMessage());
                    continue;
                } else {
                    throw conflict.get().toError(table.name());
                }
            }
            writer.insert(handle, row);
            affected++;
        }
        return inserted(table, affected, rows.size(), firstGenerated);
    }

    private UpdateResult inserted(TableInfo table, long affected, int rows, long firstGenerated) {
        if (firstGenerated != 0) {
            session.setLastInsertId(firstGenerated);
        }
        session.manager().statistics().recordModifications(table.id(), affected);
        return new UpdateResult(affected, firstGenerated, rows > 1 ? "Records: " + rows
                + "  Duplicates: 0  Warnings: " + session.warningCount() : "");
    }

    /**
     * ON DUPLICATE KEY UPDATE: the assignments as expressions over the existing row, where VALUES(column)
     * reads the row the INSERT would have written (passed as parameters).
     */
    private final class OnDuplicate {
        private final List<Integer> targets;
        private final List<RowExpression> values;
        private final List<Integer> parameterColumns;
        private final List<Object> parameters;

        OnDuplicate(List<Integer> targets, List<RowExpression> values, List<Integer> parameterColumns,
                List<Object> parameters) {
            this.targets = targets;
            this.values = values;
            this.parameterColumns = parameterColumns;
            this.parameters = parameters;
        }

        /** Updates the existing row; returns MySQL's affected-row count for it (2 changed, 0 unchanged). */
        long apply(Handle handle, Object[] inserted, TableAccess access, RowWriter writer, TableInfo table, int rowNumber,
                WriteExpressions expressions) {
            Optional<byte[]> current = transaction.getForUpdate(access.rowKey(handle));
            if (current.isEmpty()) {
                return 0;
            }
            Object[] existing = access.decode(current.get());
            parameters.clear();
            for (int column : parameterColumns) {
                parameters.add(inserted[column]);
            }
            Object[] publicRow = access.publicValues(existing);
            Object[] updated = existing.clone();
            for (int i = 0; i < targets.size(); i++) {
                ColumnInfo column = table.columns().get(targets.get(i));
                Object value = values.get(i).evaluate(publicRow);
                if (value == null && column.notNull()) {
                    throw new DuetException(ErrorCode.COLUMN_CANNOT_BE_NULL, "Column '" + column.name()
                            + "' cannot be null");
                }
                updated[targets.get(i)] = value == null ? null : coerce(value, column, rowNumber);
            }
            expressions.completeUpdated(updated, rowNumber, DmlStatements.this::coerce);
            if (sameRow(existing, updated)) {
                return 0;
            }
            Handle newHandle = table.hasClusteredPrimaryKey() ? access.handleOf(updated) : handle;
            Optional<RowWriter.Conflict> other = writer.findUpdateConflict(handle, existing, newHandle, updated);
            if (other.isPresent()) {
                throw other.get().toError(table.name());
            }
            writer.update(handle, existing, newHandle, updated);
            return 2;
        }
    }

    /**
     * The column a {@code alias.column} reference of ON DUPLICATE KEY UPDATE reads from the inserted row, through the
     * INSERT's row alias and its column names (which follow the inserted columns in order); null for other names.
     */
    private static String rowAliasColumn(io.duetdb.sql.parser.dml.SqlMySqlInsert insert, TableInfo table,
            SqlIdentifier id) {
        if (insert.rowAlias() == null) {
            return null;
        }
        boolean qualified = id.names.size() == 2 && id.names.get(0).equalsIgnoreCase(insert.rowAlias().getSimple());
        // The alias's column names may stand alone where the table has no column of the name (MySQL's examples).
        boolean aliasColumn = id.names.size() == 1 && insert.rowAliasColumns() != null
                && table.column(id.getSimple()).isEmpty();
        if (!qualified && !aliasColumn) {
            return null;
        }
        String name = id.names.get(id.names.size() - 1);
        if (insert.rowAliasColumns() == null) {
            return name;
        }
        List<String> inserted = new ArrayList<>();
        if (insert.columns() != null) {
            insert.columns().forEach(column -> inserted.add(((SqlIdentifier) column).getSimple()));
        } else {
            table.publicColumns().forEach(column -> inserted.add(column.name()));
        }
        for (int i = 0; i < insert.rowAliasColumns().size() && i < inserted.size(); i++) {
            if (((SqlIdentifier) insert.rowAliasColumns().get(i)).getSimple().equalsIgnoreCase(name)) {
                return inserted.get(i);
            }
        }
        throw new DuetException(ErrorCode.UNKNOWN_COLUMN, "Unknown column '" + String.join(".", id.names)
                + "' in 'field list'");
    }

    private OnDuplicate onDuplicate(io.duetdb.sql.parser.dml.SqlMySqlInsert insert, TableInfo table) {
        List<Integer> targets = new ArrayList<>();
        List<SqlNode> expressions = new ArrayList<>();
        List<Integer> parameterColumns = new ArrayList<>();
        for (SqlNode node : insert.onDuplicate()) {
            SqlCall assignment = (SqlCall) node;
            SqlIdentifier column = (SqlIdentifier) assignment.operand(0);
            ColumnInfo info = publicColumn(table, column.names.get(column.names.size() - 1));
            if (info.generated()) {
                throw generatedValue(info, table);
            }
            targets.add(table.columns().indexOf(info));
            expressions.add(assignment.operand(1).accept(new org.apache.calcite.sql.util.SqlShuttle() {
                @Override
                public SqlNode visit(SqlCall call) {
                    if (call.getOperator() == io.duetdb.sql.parser.dml.SqlInsertValue.OPERATOR) {
                        return insertedValue(((SqlIdentifier) call.operand(0)).getSimple(), call.getParserPosition());
                    }
                    return super.visit(call);
                }

                @Override
                public SqlNode visit(SqlIdentifier id) {
                    String column = rowAliasColumn(insert, table, id);
                    return column == null ? id : insertedValue(column, id.getParserPosition());
                }

                /** The value the INSERT would have written to the column, as a parameter of its type. */
                private SqlNode insertedValue(String columnName, SqlParserPos pos) {
                    ColumnInfo source = publicColumn(table, columnName);
                    int index = parameterColumns.size();
                    parameterColumns.add(table.columns().indexOf(source));
                    org.apache.calcite.rel.type.RelDataType type = io.duetdb.sql.prepare.TypeMapping.toCalcite(
                            new org.apache.calcite.sql.type.SqlTypeFactoryImpl(
                                    org.apache.calcite.rel.type.RelDataTypeSystem.DEFAULT), source.type(), true);
                    return SqlStdOperatorTable.CAST.createCall(pos,
                            new org.apache.calcite.sql.SqlDynamicParam(index, pos),
                            org.apache.calcite.sql.type.SqlTypeUtil.convertTypeToSpec(type));
                }
            }));
        }
        List<Object> parameters = new ArrayList<>();
        Target target = target(insert.table(), null, null, null, expressions, parameters);
        return new OnDuplicate(targets, target.values(), parameterColumns, parameters);
    }

    /**
     * Rows of the INSERT's source: VALUES rows value by value (literals directly, the other values computed by one
     * SELECT of them all, so that each keeps its own type until it is converted to its column, as in MySQL),
     * anything else through the query path.
     */
    private List<Object[]> sourceRows(SqlNode source, int width) {
        if (source.getKind() == SqlKind.VALUES) {
            List<Object[]> rows = new ArrayList<>();
            List<SqlNode> expressions = new ArrayList<>();
            List<int[]> places = new ArrayList<>();
            for (SqlNode rowNode : ((SqlCall) source).getOperandList()) {
                List<SqlNode> values = ((SqlCall) rowNode).getOperandList();
                if (values.size() != width) {
                    throw new DuetException(ErrorCode.WRONG_VALUE_COUNT, "Column count doesn't match value count at row "
                            + (rows.size() + 1));
                }
                Object[] row = new Object[width];
                for (int i = 0; i < width; i++) {
                    Object value = literal(values.get(i), parameters);
                    if (value == NOT_LITERAL) {
                        places.add(new int[] {rows.size(), i});
                        expressions.add(values.get(i));
                    } else {
                        row[i] = value;
                    }
                }
                rows.add(row);
            }
            if (!expressions.isEmpty()) {
                SqlParserPos pos = SqlParserPos.ZERO;
                Object[] computed = queryRows(new SqlSelect(pos, null, new SqlNodeList(expressions, pos), null, null,
                        null, null, null, null, null, null, null, null), expressions.size()).get(0);
                for (int k = 0; k < places.size(); k++) {
                    rows.get(places.get(k)[0])[places.get(k)[1]] = computed[k];
                }
            }
            return rows;
        }
        return queryRows(source, width);
    }

    private List<Object[]> queryRows(SqlNode source, int width) {
        QueryPlanner.PlannedQuery planned = session.planner().plan(source);
        session.requireSelect(planned);
        if (planned.rowType().getFieldCount() != width) {
            throw new DuetException(ErrorCode.WRONG_VALUE_COUNT, "Column count doesn't match value count at row 1");
        }
        ExpressionCompiler compiler = new ExpressionCompiler(planned.plan().getCluster().getRexBuilder(), session,
                List.of());
        return new PlanExecutor(transaction, compiler, false).execute(planned.plan());
    }

    private static final Object NOT_LITERAL = new Object();

    private static Object literal(SqlNode node, List<Object> parameters) {
        if (node instanceof org.apache.calcite.sql.SqlDynamicParam parameter && parameter.getIndex() < parameters.size()) {
            return parameterValue(parameters.get(parameter.getIndex()));
        }
        if (node instanceof SqlLiteral literal) {
            if (literal.getTypeName() == SqlTypeName.NULL) {
                return null;
            }
            if (literal instanceof SqlNumericLiteral numeric) {
                if (numeric.isExact()) {
                    java.math.BigDecimal value = numeric.getValueAs(java.math.BigDecimal.class);
                    return value.scale() <= 0 && value.toBigInteger().bitLength() < 63 ? (Object) value.longValueExact() : value;
                }
                return numeric.getValueAs(Double.class);
            }
            if (literal.getTypeName() == SqlTypeName.BOOLEAN) {
                return literal.booleanValue() ? 1L : 0L;
            }
            if (literal.getTypeName() == SqlTypeName.CHAR) {
                return literal.getValueAs(String.class);
            }
            if (literal.getTypeName() == SqlTypeName.BINARY) {
                // X'...' (drivers' byte arrays): rows may mix it with strings, which Calcite's VALUES refuses.
                return literal.getValueAs(org.apache.calcite.util.BitString.class).getAsByteArray();
            }
            return NOT_LITERAL;
        }
        if (node instanceof SqlBasicCall call) {
            if (call.getOperator() == SqlStdOperatorTable.DEFAULT) {
                return DEFAULT;
            }
            if (call.getKind() == SqlKind.MINUS_PREFIX && call.operand(0) instanceof SqlNumericLiteral) {
                Object value = literal(call.operand(0), parameters);
                return value instanceof Long number ? (Object) (-number)
                        : value instanceof Double number ? (Object) (-number)
                        : ((java.math.BigDecimal) value).negate();
            }
        }
        return NOT_LITERAL;
    }

    /**
     * Coerces given values, fills defaults and AUTO_INCREMENT; returns the generated id (0 when none). Generated
     * columns, and expression defaults of columns left out, are left to {@code expressions}.
     */
    private long fillRow(TableInfo table, Object[] row, boolean[] given, int rowNumber, WriteExpressions expressions) {
        long generated = 0;
        for (int i = 0; i < row.length; i++) {
            ColumnInfo column = table.columns().get(i);
            if (expressions.computes(i) && (column.generated() || !given[i])) {
                continue;
            }
            if (column.autoIncrement() && (!given[i] || row[i] == null || isZero(row[i]))) {
                generated = session.manager().autoIds().next(CatalogRecords.autoIncrementCounter(table.id()));
                row[i] = generated;
                continue;
            }
            if (!given[i] && column.state() != SchemaState.PUBLIC) {
                // A column being added or dropped: writers store what readers of older rows see.
                row[i] = TableAccess.fromStorage(column, column.originDefault());
                continue;
            }
            if (!given[i]) {
                row[i] = defaultValue(column);
            }
            if (row[i] == null) {
                if (column.notNull()) {
                    if (!given[i]) {
                        throw new DuetException(ErrorCode.NO_DEFAULT_FOR_FIELD, "Field '" + column.name()
                                + "' doesn't have a default value");
                    }
                    throw new DuetException(ErrorCode.COLUMN_CANNOT_BE_NULL, "Column '" + column.name()
                            + "' cannot be null");
                }
                continue;
            }
            row[i] = coerce(row[i], column, rowNumber);
            if (column.autoIncrement()) {
                session.manager().autoIds().observe(CatalogRecords.autoIncrementCounter(table.id()), Values.toLong(row[i]));
            }
        }
        return generated;
    }

    /** INSERT IGNORE: conversion errors become warnings, as in non-strict mode. */
    private boolean ignoreConversionErrors;
    /** The session's strictness, read once per statement. */
    private Boolean strict;

    Object coerce(Object value, ColumnInfo column, int rowNumber) {
        if (strict == null) {
            strict = session.strictMode();
        }
        Coercion.Lenient lenient = ignoreConversionErrors || !strict
                ? (code, message) -> session.addWarning(code, message.endsWith("at row 1")
                        ? message.substring(0, message.length() - 1) + rowNumber : message)
                : null;
        try {
            return Coercion.toColumn(value, column, lenient);
        } catch (DuetException e) {
            if (rowNumber > 1 && e.getMessage().endsWith("at row 1")) {
                String message = e.getMessage();
                throw new DuetException(e.code(), message.substring(0, message.length() - 1) + rowNumber);
            }
            throw e;
        }
    }

    /** MySQL: a generated column takes no value but DEFAULT. */
    static DuetException generatedValue(ColumnInfo column, TableInfo table) {
        return new DuetException(ErrorCode.GENERATED_COLUMN_VALUE_NOT_ALLOWED, "The value specified for generated"
                + " column '" + column.name() + "' in table '" + table.name() + "' is not allowed.");
    }

    /** Whether {@code value} is the DEFAULT keyword of an assignment. */
    static boolean isDefault(SqlNode value) {
        return value instanceof SqlBasicCall call && call.getOperator() == SqlStdOperatorTable.DEFAULT;
    }

    private static boolean isZero(Object value) {
        return Values.isNumber(value) && Values.toDouble(value) == 0;
    }

    Object defaultValue(ColumnInfo column) {
        if (column.defaultCurrentTimestamp()) {
            return session.statementTime();
        }
        if (column.hasDefault() && column.defaultValue() != null) {
            return Coercion.defaultToColumn(column);
        }
        if (column.notNull() && !column.hasDefault()) {
            return null;
        }
        return null;
    }

    /** What SET column = DEFAULT assigns: the column's default as a literal, or its default expression. */
    SqlNode defaultNode(ColumnInfo column) {
        if (column.defaultExpression() != null) {
            return ((SqlSelect) StatementParser.parse("SELECT (" + column.defaultExpression().text() + ")"))
                    .getSelectList().get(0);
        }
        Object defaultValue = defaultValue(column);
        return defaultValue == null ? SqlLiteral.createNull(SqlParserPos.ZERO)
                : SqlLiteral.createCharString(Values.toText(defaultValue), SqlParserPos.ZERO);
    }

    private Handle handle(TableInfo table, TableAccess access, Object[] row) {
        if (table.hasClusteredPrimaryKey()) {
            return access.handleOf(row);
        }
        return Handle.of(session.manager().autoIds().next(CatalogRecords.rowIdCounter(table.id())));
    }

    // ---- UPDATE / DELETE ----

    /**
     * The planned target of a prepared UPDATE or DELETE, planned once with its placeholders as dynamic
     * parameters and reused while the schema version and the current database stay; the parameters are
     * refilled at each execution.
     */
    static final class PreparedDml {
        private final List<Object> parameters = new ArrayList<>();
        private Object plan;
        private long schemaVersion = -1;
        private String database;
        private boolean unplannable;

        /** False when the statement cannot be planned with placeholders (it is then bound as text each time). */
        boolean plannable() {
            return !unplannable;
        }

        private boolean validFor(long version, String currentDatabase) {
            return plan != null && schemaVersion == version && java.util.Objects.equals(database, currentDatabase);
        }

        private void bind(List<Object> values) {
            parameters.clear();
            parameters.addAll(values);
        }
    }

    /**
     * Plans a prepared UPDATE or DELETE for the current schema (if not planned yet); false, and the statement
     * marked unplannable, when its placeholders leave it without types.
     */
    static boolean plan(Session session, String sql, PreparedDml prepared) {
        if (prepared.unplannable) {
            return false;
        }
        long version = session.manager().catalog().current().version();
        String database = session.currentDatabase();
        if (prepared.validFor(version, database)) {
            return true;
        }
        DmlStatements planner = new DmlStatements(session, null);
        try {
            // Parsed afresh for each planning: validation may rewrite the tree it is given.
            SqlNode statement = StatementParser.parse(sql, session.variableTypes());
            if (statement instanceof io.duetdb.sql.parser.dml.SqlMySqlUpdate update) {
                UpdatePlan plan = planner.updatePlan(update, prepared.parameters);
                prepared.plan = plan;
                prepared.unplannable = plan.target() == null;
            } else if (statement instanceof io.duetdb.sql.parser.dml.SqlMySqlDelete delete) {
                DeletePlan plan = planner.deletePlan(delete, prepared.parameters);
                prepared.plan = plan;
                prepared.unplannable = plan.target() == null;
            } else {
                prepared.unplannable = true;
            }
            prepared.schemaVersion = version;
            prepared.database = database;
        } catch (RuntimeException e) {
            prepared.unplannable = true;
        }
        return !prepared.unplannable;
    }

    private record UpdatePlan(TableInfo table, List<Integer> targetPositions, Target target) {
    }

    private record DeletePlan(TableInfo table, Target target) {
    }

    StatementResult update(io.duetdb.sql.parser.dml.SqlMySqlUpdate update) {
        return update(update, updatePlan(update, List.of()), List.of());
    }

    /** Runs a prepared UPDATE planned by {@link #plan}. */
    StatementResult update(io.duetdb.sql.parser.dml.SqlMySqlUpdate update, PreparedDml prepared, List<Object> parameters) {
        prepared.bind(parameters);
        return update(update, (UpdatePlan) prepared.plan, prepared.parameters);
    }

    private UpdatePlan updatePlan(io.duetdb.sql.parser.dml.SqlMySqlUpdate update, List<Object> parameters) {
        TableInfo table = table(update.table(), "UPDATE");
        List<SqlNode> expressions = new ArrayList<>();
        List<Integer> targetPositions = new ArrayList<>();
        for (SqlNode node : update.assignments()) {
            SqlCall assignment = (SqlCall) node;
            SqlIdentifier column = (SqlIdentifier) assignment.operand(0);
            ColumnInfo info = publicColumn(table, column.names.get(column.names.size() - 1));
            SqlNode value = assignment.operand(1);
            if (info.generated()) {
                if (!isDefault(value)) {
                    throw generatedValue(info, table);
                }
                // SET g = DEFAULT: generated columns are computed for every updated row anyway.
                continue;
            }
            targetPositions.add(table.columns().indexOf(info));
            if (isDefault(value)) {
                value = defaultNode(info);
            }
            expressions.add(value);
        }
        return new UpdatePlan(table, targetPositions, simpleTarget(update.table(), update.alias(), update.where(), update.orderBy(),
                expressions, parameters));
    }

    private StatementResult update(io.duetdb.sql.parser.dml.SqlMySqlUpdate update, UpdatePlan plan, List<Object> parameters) {
        if (plan.target() == null) {
            SqlNode from = update.alias() == null ? update.table()
                    : SqlStdOperatorTable.AS.createCall(SqlParserPos.ZERO, update.table(), update.alias());
            return new JoinedDml(session, transaction, this).update(from, update.assignments(), update.where(),
                    update.orderBy(), update.limit(), parameters);
        }
        TableInfo table = plan.table();
        session.writing(table);
        session.require(Privilege.UPDATE, session.qualifiedName(update.table())[0], table.name());
        TableAccess access = new TableAccess(table);
        WriteExpressions expressions = WriteExpressions.of(session, table);
        List<Integer> targetPositions = plan.targetPositions();
        Target target = plan.target();
        long limit = limit(update.limit(), parameters);
        List<TableReader.HandleRow> rows = target.read(transaction, access, session);
        RowWriter writer = new RowWriter(transaction, access, session.foreignKeys(transaction));
        // MySQL assigns from left to right: an assignment reads the columns earlier ones set, as they were stored.
        List<ColumnInfo> publicColumns = table.publicColumns();
        int[] publicPositions = targetPositions.stream()
                .mapToInt(position -> publicColumns.indexOf(table.columns().get(position))).toArray();
        long matched = 0;
        long changed = 0;
        for (TableReader.HandleRow read : rows) {
            if (matched >= limit) {
                break;
            }
            matched++;
            Object[] publicRow = access.publicValues(read.row());
            Object[] newRow = read.row().clone();
            for (int i = 0; i < targetPositions.size(); i++) {
                int position = targetPositions.get(i);
                ColumnInfo column = table.columns().get(position);
                Object value = target.values().get(i).evaluate(publicRow);
                if (value == null && column.notNull()) {
                    throw new DuetException(ErrorCode.COLUMN_CANNOT_BE_NULL, "Column '" + column.name()
                            + "' cannot be null");
                }
                newRow[position] = value == null ? null : coerce(value, column, (int) matched);
                if (publicPositions[i] >= 0) {
                    publicRow[publicPositions[i]] = newRow[position];
                }
            }
            for (int i = 0; i < newRow.length; i++) {
                ColumnInfo column = table.columns().get(i);
                if (column.onUpdateCurrentTimestamp() && !targetPositions.contains(i)
                        && !sameRow(read.row(), newRow)) {
                    newRow[i] = session.statementTime();
                }
            }
            expressions.completeUpdated(newRow, (int) matched, this::coerce);
            if (sameRow(read.row(), newRow)) {
                continue;
            }
            Handle newHandle = table.hasClusteredPrimaryKey() ? access.handleOf(newRow) : read.handle();
            Optional<RowWriter.Conflict> conflict = writer.findUpdateConflict(read.handle(), read.row(), newHandle, newRow);
            if (conflict.isPresent()) {
                throw conflict.get().toError(table.name());
            }
            writer.update(read.handle(), read.row(), newHandle, newRow);
            changed++;
        }
        session.manager().statistics().recordModifications(table.id(), changed);
        return new UpdateResult(changed, 0, "Rows matched: " + matched + "  Changed: " + changed + "  Warnings: 0");
    }

    StatementResult delete(io.duetdb.sql.parser.dml.SqlMySqlDelete delete) {
        return delete(delete, deletePlan(delete, List.of()), List.of());
    }

    /** Runs a prepared DELETE planned by {@link #plan}. */
    StatementResult delete(io.duetdb.sql.parser.dml.SqlMySqlDelete delete, PreparedDml prepared, List<Object> parameters) {
        prepared.bind(parameters);
        return delete(delete, (DeletePlan) prepared.plan, prepared.parameters);
    }

    private DeletePlan deletePlan(io.duetdb.sql.parser.dml.SqlMySqlDelete delete, List<Object> parameters) {
        TableInfo table = table(delete.table(), "DELETE");
        return new DeletePlan(table, simpleTarget(delete.table(), delete.alias(), delete.where(), delete.orderBy(), List.of(),
                parameters));
    }

    private StatementResult delete(io.duetdb.sql.parser.dml.SqlMySqlDelete delete, DeletePlan plan, List<Object> parameters) {
        if (plan.target() == null) {
            SqlIdentifier name = delete.alias() != null ? delete.alias() : delete.table();
            SqlNode from = delete.alias() == null ? delete.table()
                    : SqlStdOperatorTable.AS.createCall(SqlParserPos.ZERO, delete.table(), delete.alias());
            return new JoinedDml(session, transaction, this).delete(List.of(name), from, delete.where(), delete.orderBy(),
                    delete.limit(), parameters);
        }
        TableInfo table = plan.table();
        session.writing(table);
        session.require(Privilege.DELETE, session.qualifiedName(delete.table())[0], table.name());
        TableAccess access = new TableAccess(table);
        Target target = plan.target();
        long limit = limit(delete.limit(), parameters);
        RowWriter writer = new RowWriter(transaction, access, session.foreignKeys(transaction));
        long deleted = 0;
        for (TableReader.HandleRow read : target.read(transaction, access, session)) {
            if (deleted >= limit) {
                break;
            }
            writer.delete(read.handle(), read.row());
            deleted++;
        }
        session.manager().statistics().recordModifications(table.id(), deleted);
        return UpdateResult.affected(deleted);
    }

    static boolean sameRow(Object[] a, Object[] b) {
        for (int i = 0; i < a.length; i++) {
            Object x = a[i];
            Object y = b[i];
            if (x == null || y == null) {
                if (x != y) {
                    return false;
                }
            } else if (x instanceof byte[] bx && y instanceof byte[] by) {
                if (!java.util.Arrays.equals(bx, by)) {
                    return false;
                }
            } else if (Values.compare(x, y) != 0) {
                return false;
            }
        }
        return true;
    }

    long limit(SqlNode limit, List<Object> parameters) {
        if (limit == null) {
            return Long.MAX_VALUE;
        }
        if (limit instanceof org.apache.calcite.sql.SqlDynamicParam parameter) {
            Object value = parameters.get(parameter.getIndex());
            if (value == null) {
                throw new DuetException(ErrorCode.WRONG_ARGUMENTS, "Incorrect arguments to LIMIT");
            }
            return Values.toLong(value);
        }
        if (limit instanceof SqlNumericLiteral numeric) {
            return numeric.getValueAs(Long.class);
        }
        throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "LIMIT must be a number here");
    }

    /** The rows an UPDATE or DELETE targets: condition, new-value and order expressions over the table. */
    record Target(RexNode condition, List<RowExpression> values, List<RowExpression> orderKeys,
            List<Boolean> descending, ExpressionCompiler compiler) {
        List<TableReader.HandleRow> read(Transaction transaction, TableAccess access, Session session) {
            TableReader reader = TableReader.create(transaction, access, condition, compiler, true);
            List<TableReader.HandleRow> rows = new ArrayList<>(reader.read());
            if (!orderKeys.isEmpty()) {
                rows.sort((a, b) -> {
                    Object[] x = access.publicValues(a.row());
                    Object[] y = access.publicValues(b.row());
                    for (int i = 0; i < orderKeys.size(); i++) {
                        Object p = orderKeys.get(i).evaluate(x);
                        Object q = orderKeys.get(i).evaluate(y);
                        int result = p == null || q == null ? (p == q ? 0 : p == null ? -1 : 1) : Values.compare(p, q);
                        if (descending.get(i)) {
                            result = -result;
                        }
                        if (result != 0) {
                            return result;
                        }
                    }
                    return 0;
                });
            }
            return rows;
        }
    }

    /**
     * Plans {@code SELECT values..., where, order keys... FROM table} to validate the expressions against the
     * table and get them as row expressions over its public columns.
     */
    private Target target(SqlIdentifier tableName, SqlIdentifier alias, SqlNode where, SqlNodeList orderBy,
            List<SqlNode> values, List<Object> parameters) {
        Target target = simpleTarget(tableName, alias, where, orderBy, values, parameters);
        if (target == null) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "sub-queries in ON DUPLICATE KEY UPDATE are not"
                    + " supported yet");
        }
        return target;
    }

    /**
     * As {@link #target}, or null when the expressions need more than the table's own row (sub-queries): such a
     * statement's rows come from a query ({@link JoinedDml}).
     */
    Target simpleTarget(SqlIdentifier tableName, SqlIdentifier alias, SqlNode where, SqlNodeList orderBy,
            List<SqlNode> values, List<Object> parameters) {
        SqlParserPos pos = SqlParserPos.ZERO;
        // A bare placeholder as a new value has no type Calcite could infer: it is read as it comes and coerced
        // to the column like any value.
        List<SqlNode> selectItems = new ArrayList<>();
        for (SqlNode value : values) {
            selectItems.add(value instanceof org.apache.calcite.sql.SqlDynamicParam ? SqlLiteral.createNull(pos) : value);
        }
        selectItems.add(where != null ? MySqlConditions.condition(where) : SqlLiteral.createBoolean(true, pos));
        List<Boolean> descending = new ArrayList<>();
        if (orderBy != null) {
            for (SqlNode item : orderBy) {
                if (item.getKind() == SqlKind.DESCENDING) {
                    descending.add(true);
                    selectItems.add(((SqlCall) item).operand(0));
                } else {
                    descending.add(false);
                    selectItems.add(item);
                }
            }
        }
        SqlNode from = alias == null ? tableName
                : SqlStdOperatorTable.AS.createCall(pos, tableName, alias);
        SqlSelect select = new SqlSelect(pos, null, new SqlNodeList(selectItems, pos), from, null, null, null, null,
                null, null, null, null, null);
        QueryPlanner.PlannedQuery planned = session.planner().plan(select);
        RelNode plan = planned.plan();
        if (!(plan instanceof Project project) || !(project.getInput() instanceof TableScan)) {
            return null;
        }
        ExpressionCompiler compiler = new ExpressionCompiler(plan.getCluster().getRexBuilder(), session, parameters);
        List<RexNode> projects = project.getProjects();
        List<RowExpression> valueExpressions = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) instanceof org.apache.calcite.sql.SqlDynamicParam parameter) {
                int index = parameter.getIndex();
                valueExpressions.add(row -> parameters.get(index));
            } else {
                valueExpressions.add(compiler.compile(projects.get(i)));
            }
        }
        RexNode condition = projects.get(values.size());
        if (condition.isAlwaysTrue()) {
            condition = null;
        }
        List<RowExpression> orderKeys = new ArrayList<>();
        for (int i = values.size() + 1; i < projects.size(); i++) {
            orderKeys.add(compiler.compile(projects.get(i)));
        }
        return new Target(condition, valueExpressions, orderKeys, descending, compiler);
    }

    private static ColumnInfo publicColumn(TableInfo table, String name) {
        return table.publicColumns().stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_COLUMN, "Unknown column '" + name
                        + "' in 'field list'"));
    }

    /** The table {@code statement} (INSERT, UPDATE, ...) writes; views are refused (updatable views are not built). */
    TableInfo table(SqlIdentifier name, String statement) {
        TableInfo table = table(name);
        if (table.view() != null) {
            if (statement.equals("UPDATE") || statement.equals("DELETE")) {
                throw new DuetException(ErrorCode.NON_UPDATABLE_TABLE, "The target table " + table.name() + " of the "
                        + statement + " is not updatable");
            }
            throw new DuetException(ErrorCode.NON_INSERTABLE_TABLE, "The target table " + table.name() + " of the "
                    + statement + " is not insertable-into");
        }
        return table;
    }

    TableInfo table(SqlIdentifier name) {
        InfoSchema schema = session.schema();
        String database;
        String table;
        if (name.names.size() >= 2) {
            database = name.names.get(name.names.size() - 2);
            table = name.names.get(name.names.size() - 1);
        } else {
            database = session.currentDatabase();
            table = name.getSimple();
            if (database == null) {
                throw new DuetException(ErrorCode.NO_DATABASE_SELECTED, "No database selected");
            }
        }
        if (schema.database(database).isEmpty()) {
            throw new DuetException(ErrorCode.UNKNOWN_DATABASE, "Unknown database '" + database + "'");
        }
        return schema.table(database, table).orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_TABLE,
                "Table '" + database + "." + table + "' doesn't exist"));
    }
}
