package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

import io.duetdb.sql.parser.UserVariables;
import io.duetdb.sql.parser.bulk.SqlLoadData;
import io.duetdb.sql.parser.dml.SqlMySqlInsert;

/**
 * LOAD DATA with user variables in its field list or a SET clause: each batch of rows becomes
 * {@code INSERT INTO t (columns, set columns) SELECT s.f0, ..., expression, ... FROM (VALUES (...), ...) AS s(f0, ...)},
 * where the SET expressions read the row's fields for the variables (and the columns) the field list names, as
 * MySQL evaluates them row by row; the field values are text, as MySQL's variables hold them.
 */
final class LoadDataTransform {
    private static final SqlParserPos POS = SqlParserPos.ZERO;
    private static final String SOURCE = "duet_load_source";

    private final SqlIdentifier table;
    private final List<SqlLoadData.Field> fields;
    private final List<Map.Entry<String, SqlNode>> assignments;
    private final Map<String, Integer> variableFields = new HashMap<>();
    private final Map<String, Integer> columnFields = new HashMap<>();

    LoadDataTransform(SqlIdentifier table, List<SqlLoadData.Field> fields, List<Map.Entry<String, SqlNode>> assignments) {
        this.table = requireNonNull(table, "table is null");
        this.fields = List.copyOf(fields);
        this.assignments = List.copyOf(assignments);
        for (int i = 0; i < fields.size(); i++) {
            SqlLoadData.Field field = fields.get(i);
            (field.variable() ? variableFields : columnFields).put(field.name().toLowerCase(Locale.ROOT), i);
        }
    }

    /** The INSERT of one batch of rows (their fields as text, null for NULL). */
    SqlMySqlInsert insert(List<Object[]> rows, boolean replace, boolean ignore) {
        List<SqlNode> values = new ArrayList<>();
        for (Object[] row : rows) {
            List<SqlNode> literals = new ArrayList<>();
            for (Object field : row) {
                literals.add(field == null ? SqlLiteral.createNull(POS) : SqlLiteral.createCharString((String) field, POS));
            }
            values.add(SqlStdOperatorTable.ROW.createCall(POS, literals));
        }
        List<SqlNode> alias = new ArrayList<>();
        alias.add(SqlStdOperatorTable.VALUES.createCall(POS, values));
        alias.add(new SqlIdentifier(SOURCE, POS));
        for (int i = 0; i < fields.size(); i++) {
            alias.add(new SqlIdentifier(fieldName(i), POS));
        }
        SqlNodeList columns = new SqlNodeList(POS);
        SqlNodeList selectList = new SqlNodeList(POS);
        for (int i = 0; i < fields.size(); i++) {
            if (!fields.get(i).variable()) {
                columns.add(new SqlIdentifier(fields.get(i).name(), POS));
                selectList.add(field(i));
            }
        }
        for (Map.Entry<String, SqlNode> assignment : assignments) {
            columns.add(new SqlIdentifier(assignment.getKey(), POS));
            selectList.add(assignment.getValue().accept(new FieldReferences()));
        }
        SqlSelect select = new SqlSelect(POS, null, selectList, SqlStdOperatorTable.AS.createCall(POS, alias), null,
                null, null, null, null, null, null, null, null);
        return new SqlMySqlInsert(POS, replace, ignore, table, columns, select, null);
    }

    private static String fieldName(int index) {
        return "f" + index;
    }

    private static SqlIdentifier field(int index) {
        return new SqlIdentifier(List.of(SOURCE, fieldName(index)), POS);
    }

    /** Variables and columns the field list names become the row's fields; everything else stays. */
    private final class FieldReferences extends SqlShuttle {
        @Override
        public SqlNode visit(SqlCall call) {
            String variable = UserVariables.name(call);
            if (variable != null && variableFields.containsKey(variable)) {
                return field(variableFields.get(variable));
            }
            return super.visit(call);
        }

        @Override
        public SqlNode visit(SqlIdentifier identifier) {
            if (identifier.isSimple()) {
                Integer index = columnFields.get(identifier.getSimple().toLowerCase(Locale.ROOT));
                if (index != null) {
                    return field(index);
                }
            }
            return identifier;
        }
    }
}
