package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.Handle;
import io.duetdb.sql.exec.ExpressionCompiler;
import io.duetdb.sql.exec.RowWriter;
import io.duetdb.sql.exec.TableAccess;
import io.duetdb.sql.exec.TableReader;
import io.duetdb.sql.exec.Values;
import io.duetdb.sql.prepare.MySqlConditions;
import io.duetdb.sql.prepare.QueryPlanner;

/**
 * UPDATE and DELETE whose rows come from a query: MySQL's multiple-table forms, and single-table statements whose
 * condition or new values hold sub-queries. One SELECT over the statement's table references gives, per joined row,
 * the key of each target table's row (its primary key, else a NOT NULL unique key) and, for UPDATE, the new values;
 * the target rows are then read by those keys, under lock, a batch at a time, and each is written once, with the
 * values of the first joined row that matched it (MySQL: "each matching row is updated once, even if it matches the
 * conditions multiple times"). The new values are computed from the rows as the query read them.
 */
final class JoinedDml {
    /** Keys per locking read of a target table: an OR of key equalities that reads as a batch point get. */
    private static final int KEYS_PER_READ = 256;

    private final Session session;
    private final Transaction transaction;
    private final DmlStatements statements;

    JoinedDml(Session session, Transaction transaction, DmlStatements statements) {
        this.session = requireNonNull(session, "session is null");
        this.transaction = requireNonNull(transaction, "transaction is null");
        this.statements = requireNonNull(statements, "statements is null");
    }

    /** One table a statement writes: how the references name it, its definition and the columns that key it. */
    private record TargetTable(String reference, SqlIdentifier name, TableInfo table, List<String> keyColumns) {
    }

    /** One assignment of an UPDATE: the target table (index into the targets), the column and its new value. */
    private record Assignment(int target, ColumnInfo column, SqlNode value) {
    }

    StatementResult update(SqlNode from, SqlNodeList assignmentList, SqlNode where, SqlNodeList orderBy, SqlNode limit,
            List<Object> parameters) {
        Map<String, SqlIdentifier> references = references(from);
        List<TargetTable> targets = new ArrayList<>();
        List<Assignment> assignments = new ArrayList<>();
        for (SqlNode node : assignmentList) {
            SqlCall call = (SqlCall) node;
            SqlIdentifier column = (SqlIdentifier) call.operand(0);
            String reference = referenceOf(column, references);
            int target = target(targets, reference, references, "UPDATE", Privilege.UPDATE);
            ColumnInfo info = publicColumn(targets.get(target).table(), column);
            SqlNode value = call.operand(1);
            if (info.generated()) {
                if (!DmlStatements.isDefault(value)) {
                    throw DmlStatements.generatedValue(info, targets.get(target).table());
                }
                continue;
            }
            if (DmlStatements.isDefault(value)) {
                value = statements.defaultNode(info);
            }
            assignments.add(new Assignment(target, info, value));
        }
        List<SqlNode> values = new ArrayList<>();
        for (Assignment assignment : assignments) {
            values.add(assignment.value());
        }
        List<Object[]> joined = query(from, targets, values, where, orderBy, limit, parameters);
        long matched = 0;
        long changed = 0;
        int valueStart = keyWidth(targets);
        for (int t = 0; t < targets.size(); t++) {
            TargetTable target = targets.get(t);
            List<Integer> positions = new ArrayList<>();
            List<Integer> valueIndexes = new ArrayList<>();
            for (int a = 0; a < assignments.size(); a++) {
                if (assignments.get(a).target() == t) {
                    positions.add(target.table().columns().indexOf(assignments.get(a).column()));
                    valueIndexes.add(valueStart + a);
                }
            }
            if (positions.isEmpty()) {
                continue;
            }
            TargetWrite write = startWrite(targets, t, joined);
            TableAccess access = write.access();
            RowWriter writer = write.writer();
            long tableChanged = 0;
            for (TableReader.HandleRow read : lockedRows(target, write.rows(), parameters)) {
                Object[] source = write.sourceOf(read.row());
                if (source == null) {
                    continue;
                }
                matched++;
                Object[] newRow = read.row().clone();
                for (int i = 0; i < positions.size(); i++) {
                    ColumnInfo column = target.table().columns().get(positions.get(i));
                    Object value = source[valueIndexes.get(i)];
                    if (value == null && column.notNull()) {
                        throw new DuetException(ErrorCode.COLUMN_CANNOT_BE_NULL, "Column '" + column.name()
                                + "' cannot be null");
                    }
                    newRow[positions.get(i)] = value == null ? null : statements.coerce(value, column, (int) matched);
                }
                if (DmlStatements.sameRow(read.row(), newRow)) {
                    continue;
                }
                for (int i = 0; i < newRow.length; i++) {
                    if (target.table().columns().get(i).onUpdateCurrentTimestamp() && !positions.contains(i)) {
                        newRow[i] = session.statementTime();
                    }
                }
                write.expressions().completeUpdated(newRow, (int) matched, statements::coerce);
                Handle newHandle = target.table().hasClusteredPrimaryKey() ? access.handleOf(newRow) : read.handle();
                RowWriter.Conflict conflict = writer.findUpdateConflict(read.handle(), read.row(), newHandle, newRow)
                        .orElse(null);
                if (conflict != null) {
                    throw conflict.toError(target.table().name());
                }
                writer.update(read.handle(), read.row(), newHandle, newRow);
                tableChanged++;
            }
            session.manager().statistics().recordModifications(target.table().id(), tableChanged);
            changed += tableChanged;
        }
        return new UpdateResult(changed, 0, "Rows matched: " + matched + "  Changed: " + changed + "  Warnings: 0");
    }

    StatementResult delete(List<SqlIdentifier> targetNames, SqlNode from, SqlNode where, SqlNodeList orderBy,
            SqlNode limit, List<Object> parameters) {
        Map<String, SqlIdentifier> references = references(from);
        List<TargetTable> targets = new ArrayList<>();
        for (SqlIdentifier name : targetNames) {
            String reference = name.names.get(name.names.size() - 1).toLowerCase(Locale.ROOT);
            if (!references.containsKey(reference)) {
                throw new DuetException(ErrorCode.UNKNOWN_TABLE, "Unknown table '" + name.names.get(name.names.size() - 1)
                        + "' in MULTI DELETE");
            }
            target(targets, reference, references, "DELETE", Privilege.DELETE);
        }
        List<Object[]> joined = query(from, targets, List.of(), where, orderBy, limit, parameters);
        long deleted = 0;
        for (int t = 0; t < targets.size(); t++) {
            TargetTable target = targets.get(t);
            TargetWrite write = startWrite(targets, t, joined);
            long tableDeleted = 0;
            for (TableReader.HandleRow read : lockedRows(target, write.rows(), parameters)) {
                if (write.sourceOf(read.row()) != null) {
                    write.writer().delete(read.handle(), read.row());
                    tableDeleted++;
                }
            }
            session.manager().statistics().recordModifications(target.table().id(), tableDeleted);
            deleted += tableDeleted;
        }
        return UpdateResult.affected(deleted);
    }

    /** Target {@code t}'s joined rows by key, and a writer for the table, which the session now writes. */
    private TargetWrite startWrite(List<TargetTable> targets, int t, List<Object[]> joined) {
        TargetTable target = targets.get(t);
        TableAccess access = new TableAccess(target.table());
        session.writing(target.table());
        RowWriter writer = new RowWriter(transaction, access, session.foreignKeys(transaction));
        return new TargetWrite(target, keyedRows(joined, keyOffset(targets, t), target.keyColumns().size()), access,
                writer, WriteExpressions.of(session, target.table()));
    }

    private record TargetWrite(TargetTable target, Map<String, Object[]> rows, TableAccess access, RowWriter writer,
            WriteExpressions expressions) {
        /** The joined row whose key the stored row has, or null when the join did not produce it. */
        Object[] sourceOf(Object[] storedRow) {
            return rows.get(keyOf(access, target, storedRow));
        }
    }

    /**
     * The joined rows: each target's key columns, then the new values, from the references joined and filtered as
     * a SELECT would.
     */
    private List<Object[]> query(SqlNode from, List<TargetTable> targets, List<SqlNode> values, SqlNode where,
            SqlNodeList orderBy, SqlNode limit, List<Object> parameters) {
        if (targets.size() > 1 || !(from instanceof SqlIdentifier || from.getKind() == SqlKind.AS)) {
            if (orderBy != null || limit != null) {
                throw new DuetException(ErrorCode.WRONG_USAGE, "Incorrect usage of " + (values.isEmpty() ? "DELETE"
                        : "UPDATE") + " and " + (orderBy != null ? "ORDER BY" : "LIMIT"));
            }
        }
        SqlParserPos pos = SqlParserPos.ZERO;
        List<SqlNode> items = new ArrayList<>();
        for (TargetTable target : targets) {
            for (String column : target.keyColumns()) {
                items.add(new SqlIdentifier(List.of(target.reference(), column), pos));
            }
        }
        items.addAll(values);
        SqlNode fetch = limit == null ? null
                : limit instanceof SqlDynamicParam ? SqlLiteral.createExactNumeric(
                        Long.toString(statements.limit(limit, parameters)), pos) : limit;
        SqlSelect select = new SqlSelect(pos, null, new SqlNodeList(items, pos), from,
                where == null ? null : MySqlConditions.condition(where), null, null, null, null, orderBy, null, fetch,
                null);
        QueryPlanner.PlannedQuery planned = session.planner().plan(select);
        // As MySQL: the tables the statement reads (its conditions, joins and new values) need SELECT.
        session.requireSelect(planned);
        RelNode plan = planned.plan();
        ExpressionCompiler compiler = new ExpressionCompiler(plan.getCluster().getRexBuilder(), session, parameters);
        return LockingQueries.execute(transaction, compiler, null, plan);
    }

    /** The target rows the keys name, read at their latest versions under lock, a batch of keys per read. */
    private List<TableReader.HandleRow> lockedRows(TargetTable target, Map<String, Object[]> rows,
            List<Object> statementParameters) {
        List<TableReader.HandleRow> read = new ArrayList<>();
        List<Object[]> keys = new ArrayList<>(rows.values());
        int width = target.keyColumns().size();
        for (int start = 0; start < keys.size(); start += KEYS_PER_READ) {
            List<Object[]> batch = keys.subList(start, Math.min(keys.size(), start + KEYS_PER_READ));
            List<Object> parameters = new ArrayList<>(statementParameters);
            SqlNode condition = null;
            for (Object[] key : batch) {
                SqlNode equalities = null;
                for (int c = 0; c < width; c++) {
                    SqlNode equality = SqlStdOperatorTable.EQUALS.createCall(SqlParserPos.ZERO,
                            new SqlIdentifier(target.keyColumns().get(c), SqlParserPos.ZERO),
                            new SqlDynamicParam(parameters.size(), SqlParserPos.ZERO));
                    parameters.add(key[key.length - width + c]);
                    equalities = equalities == null ? equality
                            : SqlStdOperatorTable.AND.createCall(SqlParserPos.ZERO, equalities, equality);
                }
                condition = condition == null ? equalities
                        : SqlStdOperatorTable.OR.createCall(SqlParserPos.ZERO, condition, equalities);
            }
            DmlStatements.Target reader = statements.simpleTarget(target.name(), null, condition, null, List.of(),
                    parameters);
            read.addAll(reader.read(transaction, new TableAccess(target.table()), session));
        }
        return read;
    }

    /**
     * The joined rows by the key text of one target (columns {@code offset} to {@code offset + width}), first match
     * kept; each value array ends with the key's values, so that it also gives the key to read by.
     */
    private static Map<String, Object[]> keyedRows(List<Object[]> joined, int offset, int width) {
        Map<String, Object[]> rows = new LinkedHashMap<>();
        for (Object[] row : joined) {
            StringBuilder key = new StringBuilder();
            boolean missing = false;
            Object[] withKey = new Object[row.length + width];
            System.arraycopy(row, 0, withKey, 0, row.length);
            for (int c = 0; c < width; c++) {
                Object value = row[offset + c];
                // An outer join's missing side names no row.
                missing |= value == null;
                key.append(value == null ? "" : Values.toText(value)).append('\0');
                withKey[row.length + c] = value;
            }
            if (!missing) {
                rows.putIfAbsent(key.toString(), withKey);
            }
        }
        return rows;
    }

    private static String keyOf(TableAccess access, TargetTable target, Object[] row) {
        StringBuilder key = new StringBuilder();
        for (String column : target.keyColumns()) {
            key.append(Values.toText(row[access.columnIndex(column)])).append('\0');
        }
        return key.toString();
    }

    private static int keyWidth(List<TargetTable> targets) {
        return keyOffset(targets, targets.size());
    }

    private static int keyOffset(List<TargetTable> targets, int target) {
        int offset = 0;
        for (int i = 0; i < target; i++) {
            offset += targets.get(i).keyColumns().size();
        }
        return offset;
    }

    /** The index of the target named by {@code reference}, added (and its privilege checked) on first use. */
    private int target(List<TargetTable> targets, String reference, Map<String, SqlIdentifier> references,
            String statement, Privilege privilege) {
        for (int i = 0; i < targets.size(); i++) {
            if (targets.get(i).reference().equals(reference)) {
                return i;
            }
        }
        SqlIdentifier name = references.get(reference);
        if (name == null) {
            throw new DuetException(ErrorCode.NON_UPDATABLE_TABLE, "The target table " + reference + " of the "
                    + statement + " is not updatable");
        }
        TableInfo table = statements.table(name, statement);
        session.require(privilege, session.qualifiedName(name)[0], table.name());
        targets.add(new TargetTable(reference, name, table, keyColumns(table, statement)));
        return targets.size() - 1;
    }

    /** The columns that name one row: the primary key, else the first unique key of NOT NULL columns. */
    private static List<String> keyColumns(TableInfo table, String statement) {
        if (table.primaryKey().isPresent()) {
            return table.primaryKey().get().columns();
        }
        for (IndexInfo index : table.indexes()) {
            if (index.unique() && index.state() == SchemaState.PUBLIC && index.columns().stream()
                    .allMatch(column -> table.column(column).map(ColumnInfo::notNull).orElse(false))) {
                return index.columns();
            }
        }
        throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "a multiple-table " + statement + ", or one with"
                + " sub-queries, of table '" + table.name() + "' needs the table to have a primary key or a NOT NULL"
                + " unique key");
    }

    /** The table references of a FROM clause by the name statements use for them (alias, else table name). */
    private static Map<String, SqlIdentifier> references(SqlNode from) {
        Map<String, SqlIdentifier> references = new LinkedHashMap<>();
        collect(from, references);
        return references;
    }

    private static void collect(SqlNode node, Map<String, SqlIdentifier> references) {
        if (node instanceof SqlJoin join) {
            collect(join.getLeft(), references);
            collect(join.getRight(), references);
        } else if (node instanceof SqlIdentifier table) {
            references.put(table.names.get(table.names.size() - 1).toLowerCase(Locale.ROOT), table);
        } else if (node.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) node;
            SqlIdentifier alias = as.operand(1);
            // A derived table has a name, but no rows of its own to write: it stays out of the map.
            if (as.operand(0) instanceof SqlIdentifier table) {
                references.put(alias.getSimple().toLowerCase(Locale.ROOT), table);
            } else {
                references.putIfAbsent(alias.getSimple().toLowerCase(Locale.ROOT), null);
            }
        }
    }

    /** The reference whose table an assignment's column belongs to: its qualifier, else the one table having it. */
    private String referenceOf(SqlIdentifier column, Map<String, SqlIdentifier> references) {
        if (column.names.size() >= 2) {
            String qualifier = column.names.get(column.names.size() - 2).toLowerCase(Locale.ROOT);
            if (!references.containsKey(qualifier)) {
                throw new DuetException(ErrorCode.UNKNOWN_COLUMN, "Unknown column '" + String.join(".", column.names)
                        + "' in 'field list'");
            }
            return qualifier;
        }
        String name = column.getSimple();
        String found = null;
        for (Map.Entry<String, SqlIdentifier> reference : references.entrySet()) {
            if (reference.getValue() != null && statements.table(reference.getValue()).column(name).isPresent()) {
                if (found != null) {
                    throw new DuetException(ErrorCode.NON_UNIQUE_COLUMN, "Column '" + name + "' in field list is"
                            + " ambiguous");
                }
                found = reference.getKey();
            }
        }
        if (found == null) {
            throw new DuetException(ErrorCode.UNKNOWN_COLUMN, "Unknown column '" + name + "' in 'field list'");
        }
        return found;
    }

    private static ColumnInfo publicColumn(TableInfo table, SqlIdentifier column) {
        String name = column.names.get(column.names.size() - 1);
        return table.publicColumns().stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_COLUMN, "Unknown column '"
                        + String.join(".", column.names) + "' in 'field list'"));
    }
}
