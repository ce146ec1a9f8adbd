package io.duetdb.sql.parser;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A statement of DuetDB's MySQL grammar extension. These nodes are never validated by Calcite: the statement
 * handlers read their fields, and only the queries and expressions inside them go through Calcite.
 */
public abstract class DuetSqlCall extends SqlCall {
    private final SqlOperator operator;

    protected DuetSqlCall(SqlParserPos pos, String name) {
        super(pos);
        this.operator = new SqlSpecialOperator(name, SqlKind.OTHER);
    }

    @Override
    public SqlOperator getOperator() {
        return operator;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return nonNull(operands().toArray(new SqlNode[0]));
    }

    /** The child nodes, nulls allowed. */
    protected abstract List<SqlNode> operands();

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        unparseStatement(writer, operator, getOperandList());
    }

    /** The non-null nodes, in order: the operand list of a statement node. */
    public static List<SqlNode> nonNull(SqlNode... nodes) {
        List<SqlNode> operands = new ArrayList<>(nodes.length);
        for (SqlNode node : nodes) {
            if (node != null) {
                operands.add(node);
            }
        }
        return operands;
    }

    /** Writes a statement node as its name followed by its operands (for logs; never parsed back). */
    public static void unparseStatement(SqlWriter writer, SqlOperator operator, List<SqlNode> operands) {
        writer.keyword(operator.getName());
        for (SqlNode operand : operands) {
            operand.unparse(writer, 0, 0);
        }
    }

    /** Adds {@code node} to {@code list}, or each node of it when it is a list (one clause that is several). */
    public static void addFlattened(List<SqlNode> list, SqlNode node) {
        if (node instanceof SqlNodeList nodes) {
            list.addAll(nodes.getList());
        } else {
            list.add(node);
        }
    }

    /** The table of a FROM clause that names one table, with or without an alias; null for anything else. */
    public static SqlIdentifier singleTable(SqlNode from) {
        if (from instanceof SqlIdentifier table) {
            return table;
        }
        if (from.getKind() == SqlKind.AS && ((SqlCall) from).operandCount() == 2
                && ((SqlCall) from).operand(0) instanceof SqlIdentifier table) {
            return table;
        }
        return null;
    }

    /** The alias of a FROM clause that names one table, or null. */
    public static SqlIdentifier singleTableAlias(SqlNode from) {
        return from.getKind() == SqlKind.AS ? ((SqlCall) from).operand(1) : null;
    }

    /** The names a list of identifiers holds (tables a statement names). */
    protected static List<SqlIdentifier> identifiers(SqlNodeList list) {
        List<SqlIdentifier> names = new ArrayList<>(list.size());
        for (SqlNode node : list) {
            names.add((SqlIdentifier) node);
        }
        return names;
    }

    protected static List<SqlNode> nodes(SqlNode... nodes) {
        List<SqlNode> list = new ArrayList<>(nodes.length);
        for (SqlNode node : nodes) {
            list.add(node);
        }
        return list;
    }
}
