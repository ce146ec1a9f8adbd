package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;

import com.google.protobuf.ByteString;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.exec.TableAccess;

/**
 * TiDB's point-get and batch-point-get plans: {@code SELECT columns | * FROM table WHERE pk = integer} (or
 * {@code pk = ?} in a prepared statement) or {@code pk IN (integers)} on a table whose primary key is its clustered
 * integer handle reads those rows without Calcite. Anything else — other shapes, unknown names, a value that is not
 * an exact integer, a placeholder bound to anything but an integer — is left to the planner, which gives the errors
 * and MySQL's conversions.
 */
final class PointGetFastPath {
    private final TableInfo table;
    private final String databaseName;
    private final List<Integer> columnIndexes;
    private final List<String> labels;
    /** Distinct, ascending: the order a scan of the table would give. Empty when the key is a placeholder. */
    private final List<Long> handles;
    /** The placeholder that gives the key, or -1. */
    private final int parameterIndex;
    private final boolean unsignedKey;
    private final List<ResultColumn> columns;
    /** The table's row layout, built once: a cached statement reads many rows through it. */
    private final TableAccess access;

    private PointGetFastPath(TableInfo table, String databaseName, List<Integer> columnIndexes, List<String> labels,
            List<Long> handles, int parameterIndex, boolean unsignedKey) {
        this.table = table;
        this.databaseName = databaseName;
        this.columnIndexes = columnIndexes;
        this.labels = labels;
        this.handles = handles;
        this.parameterIndex = parameterIndex;
        this.unsignedKey = unsignedKey;
        this.columns = resultColumns();
        this.access = new TableAccess(table);
    }

    String databaseName() {
        return databaseName;
    }

    TableInfo table() {
        return table;
    }

    static Optional<PointGetFastPath> match(SqlNode statement, InfoSchema schema, String currentDatabase) {
        if (!(statement instanceof SqlSelect select) || select.isDistinct() || select.getGroup() != null
                || select.getHaving() != null || select.getWindowList().size() != 0 || select.getOrderList() != null
                || select.getOffset() != null || select.getFetch() != null || select.getQualify() != null
                || select.hasHints() || !(select.getFrom() instanceof SqlIdentifier from) || from.isStar()
                || !(select.getWhere() instanceof SqlBasicCall where)
                || where.getKind() != SqlKind.EQUALS && where.getKind() != SqlKind.IN) {
            return Optional.empty();
        }
        String databaseName = from.names.size() == 2 ? from.names.get(0) : currentDatabase;
        if (databaseName == null || from.names.size() > 2) {
            return Optional.empty();
        }
        Optional<DatabaseInfo> database = schema.database(databaseName);
        Optional<TableInfo> found = schema.table(databaseName, from.names.get(from.names.size() - 1));
        if (database.isEmpty() || found.isEmpty() || !found.get().hasClusteredHandle()) {
            return Optional.empty();
        }
        TableInfo table = found.get();
        SqlNode left = where.operand(0);
        SqlNode right = where.operand(1);
        boolean valueFirst = left instanceof SqlNumericLiteral || left instanceof SqlDynamicParam;
        SqlNode key = valueFirst ? right : left;
        List<SqlNode> values = where.getKind() == SqlKind.IN
                ? right instanceof SqlNodeList list ? list.getList() : List.of()
                : List.of(valueFirst ? left : right);
        Optional<ColumnInfo> keyColumn = column(table, key, from);
        if (keyColumn.isEmpty() || !keyColumn.get().name().equalsIgnoreCase(table.handleColumn()) || values.isEmpty()
                || where.getKind() == SqlKind.IN && valueFirst) {
            return Optional.empty();
        }
        int parameterIndex = -1;
        TreeSet<Long> handles = new TreeSet<>();
        for (SqlNode value : values) {
            if (value instanceof SqlDynamicParam parameter && where.getKind() == SqlKind.EQUALS) {
                parameterIndex = parameter.getIndex();
                continue;
            }
            if (!(value instanceof SqlNumericLiteral number) || !number.isExact()) {
                return Optional.empty();
            }
            BigDecimal exact = number.getValueAs(BigDecimal.class);
            if (exact.scale() > 0 || exact.toBigInteger().bitLength() >= 63
                    || exact.signum() < 0 && keyColumn.get().type().unsigned()) {
                return Optional.empty();
            }
            handles.add(exact.longValueExact());
        }
        List<Integer> indexes = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        SqlNodeList items = select.getSelectList();
        for (SqlNode item : items) {
            if (item instanceof SqlIdentifier identifier && identifier.isStar()
                    && (identifier.names.size() == 1 || qualifies(identifier, from))) {
                for (ColumnInfo column : table.publicColumns()) {
                    indexes.add(table.columns().indexOf(column));
                    labels.add(column.name());
                }
                continue;
            }
            Optional<ColumnInfo> column = column(table, item, from);
            if (column.isEmpty()) {
                return Optional.empty();
            }
            indexes.add(table.columns().indexOf(column.get()));
            labels.add(((SqlIdentifier) item).names.get(((SqlIdentifier) item).names.size() - 1));
        }
        return Optional.of(new PointGetFastPath(table, database.get().name(), indexes, labels, List.copyOf(handles),
                parameterIndex, keyColumn.get().type().unsigned()));
    }

    /** A public column named by a plain or table-qualified identifier. */
    private static Optional<ColumnInfo> column(TableInfo table, SqlNode node, SqlIdentifier from) {
        if (!(node instanceof SqlIdentifier identifier) || identifier.isStar() || identifier.names.size() > 2
                || identifier.names.size() == 2 && !qualifies(identifier, from)) {
            return Optional.empty();
        }
        String name = identifier.names.get(identifier.names.size() - 1);
        return table.publicColumns().stream().filter(column -> column.name().equalsIgnoreCase(name)).findFirst();
    }

    private static boolean qualifies(SqlIdentifier identifier, SqlIdentifier from) {
        return identifier.names.size() == 2
                && identifier.names.get(0).equalsIgnoreCase(from.names.get(from.names.size() - 1));
    }

    /**
     * The handles to read with these placeholder values; empty when a placeholder holds something other than an
     * integer the key can take (the planner then converts it as MySQL does).
     */
    Optional<List<Long>> handles(List<Object> parameters) {
        if (parameterIndex < 0) {
            return Optional.of(handles);
        }
        Object value = parameterIndex < parameters.size() ? parameters.get(parameterIndex) : null;
        if (!(value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte)) {
            return Optional.empty();
        }
        long handle = ((Number) value).longValue();
        if (handle < 0 && unsignedKey) {
            return Optional.empty();
        }
        return Optional.of(List.of(handle));
    }

    QueryResult run(Transaction transaction, List<Long> handles) {
        requireNonNull(transaction, "transaction is null");
        requireNonNull(handles, "handles is null");
        List<byte[]> keys = handles.stream().map(handle -> access.rowKey(handle.longValue())).toList();
        Map<ByteString, byte[]> found = keys.size() == 1
                ? transaction.get(keys.get(0)).map(value -> Map.of(ByteString.copyFrom(keys.get(0)), value))
                        .orElse(Map.of())
                : transaction.batchGet(keys);
        List<Object[]> rows = new ArrayList<>();
        for (byte[] key : keys) {
            byte[] stored = found.get(ByteString.copyFrom(key));
            if (stored != null) {
                rows.add(project(access, stored));
            }
        }
        return new QueryResult(columns, rows);
    }

    /** The key of the row with this handle. */
    byte[] rowKey(long handle) {
        return access.rowKey(handle);
    }

    /** The answer when the row read is {@code stored} (empty when there is no such row). */
    QueryResult result(Optional<byte[]> stored) {
        requireNonNull(stored, "stored is null");
        List<Object[]> rows = stored.isEmpty() ? List.of()
                : List.<Object[]>of(project(access, stored.get()));
        return new QueryResult(columns, rows);
    }

    private List<ResultColumn> resultColumns() {
        List<ResultColumn> columns = new ArrayList<>();
        for (int i = 0; i < columnIndexes.size(); i++) {
            ColumnInfo column = table.columns().get(columnIndexes.get(i));
            columns.add(new ResultColumn(labels.get(i), databaseName, table.name(), column.name(), column.type(),
                    column.notNull()));
        }
        return List.copyOf(columns);
    }

    private Object[] project(TableAccess access, byte[] stored) {
        Object[] row = access.decode(stored);
        Object[] projected = new Object[columnIndexes.size()];
        for (int i = 0; i < projected.length; i++) {
            projected[i] = row[columnIndexes.get(i)];
        }
        return projected;
    }
}
