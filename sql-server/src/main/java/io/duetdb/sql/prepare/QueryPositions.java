package io.duetdb.sql.prepare;

import java.util.Optional;

import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/** What stands at a position of a parsed query: the identifier there, and MySQL's name for its clause. */
final class QueryPositions {
    private static final String SELECT_LIST = "field list";

    private QueryPositions() {
    }

    /** The identifier the position lies in (a qualified name's column or qualifier), as written. */
    static Optional<SqlIdentifier> identifierAt(SqlNode query, int line, int column) {
        SqlIdentifier[] found = {null};
        query.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier identifier) {
                if (found[0] == null && contains(identifier, line, column)) {
                    found[0] = identifier;
                }
                return null;
            }
        });
        return Optional.ofNullable(found[0]);
    }

    /** The outermost call that starts at the position. */
    static Optional<SqlCall> callAt(SqlNode query, int line, int column) {
        SqlCall[] found = {null};
        query.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                SqlParserPos position = call.getParserPosition();
                if (found[0] == null && position.getLineNum() == line && position.getColumnNum() == column) {
                    found[0] = call;
                    return null;
                }
                return super.visit(call);
            }
        });
        return Optional.ofNullable(found[0]);
    }

    /**
     * MySQL's name for the clause the position lies in (as its 1054 and 1052 messages say it): field list, where
     * clause, group statement, having clause, order clause or on clause; the innermost SELECT's.
     */
    static String clauseAt(SqlNode query, int line, int column) {
        String[] clause = {SELECT_LIST};
        query.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select) {
                    check(select.getSelectList(), SELECT_LIST);
                    check(select.getWhere(), "where clause");
                    check(select.getGroup(), "group statement");
                    check(select.getHaving(), "having clause");
                    check(select.getOrderList(), "order clause");
                } else if (call instanceof SqlOrderBy orderBy) {
                    check(orderBy.orderList, "order clause");
                } else if (call instanceof SqlJoin join && join.getConditionType() == JoinConditionType.ON) {
                    check(join.getCondition(), "on clause");
                }
                return super.visit(call);
            }

            private void check(SqlNode node, String name) {
                if (node != null && contains(node, line, column)) {
                    clause[0] = name;
                }
            }
        });
        return clause[0];
    }

    private static boolean contains(SqlNode node, int line, int column) {
        if (node instanceof SqlNodeList list) {
            for (SqlNode item : list) {
                if (item != null && contains(item, line, column)) {
                    return true;
                }
            }
            return false;
        }
        SqlParserPos position = node.getParserPosition();
        if (position.getLineNum() <= 0) {
            return false;
        }
        boolean afterStart = line > position.getLineNum()
                || line == position.getLineNum() && column >= position.getColumnNum();
        boolean beforeEnd = line < position.getEndLineNum()
                || line == position.getEndLineNum() && column <= position.getEndColumnNum();
        return afterStart && beforeEnd;
    }
}
