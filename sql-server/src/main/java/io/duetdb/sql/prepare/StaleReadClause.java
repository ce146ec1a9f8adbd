package io.duetdb.sql.prepare;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSnapshot;
import org.apache.calcite.util.Litmus;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * TiDB's stale read clause, {@code AS OF TIMESTAMP expr} after a table name (parsed as Calcite's
 * {@link SqlSnapshot}): taken out of the statement, which then plans as any other and reads at the time it names.
 * Every table of a statement names the same time, as TiDB requires.
 */
public final class StaleReadClause {
    private StaleReadClause() {
    }

    /** Removes the clauses from {@code statement} (in place) and returns their time, if it has any. */
    public static Optional<SqlNode> take(SqlNode statement) {
        List<SqlNode> times = new ArrayList<>();
        strip(statement, times);
        if (times.isEmpty()) {
            return Optional.empty();
        }
        SqlNode time = times.get(0);
        for (SqlNode other : times) {
            if (!other.equalsDeep(time, Litmus.IGNORE)) {
                throw new DuetException(ErrorCode.INVALID_READ_TIMESTAMP,
                        "invalid as of timestamp: can not set different time in the as of");
            }
        }
        return Optional.of(time);
    }

    private static void strip(SqlNode node, List<SqlNode> times) {
        if (node instanceof SqlNodeList list) {
            for (int i = 0; i < list.size(); i++) {
                SqlNode child = list.get(i);
                if (child instanceof SqlSnapshot snapshot) {
                    times.add(snapshot.getPeriod());
                    child = snapshot.getTableRef();
                    list.set(i, child);
                }
                strip(child, times);
            }
        } else if (node instanceof SqlCall call) {
            List<SqlNode> operands = call.getOperandList();
            for (int i = 0; i < operands.size(); i++) {
                SqlNode child = operands.get(i);
                if (child instanceof SqlSnapshot snapshot) {
                    times.add(snapshot.getPeriod());
                    child = snapshot.getTableRef();
                    replace(call, i, child);
                }
                if (child != null) {
                    strip(child, times);
                }
            }
        }
    }

    private static void replace(SqlCall call, int index, SqlNode child) {
        try {
            call.setOperand(index, child);
        } catch (UnsupportedOperationException e) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "AS OF TIMESTAMP is not supported in "
                    + call.getKind());
        }
    }
}
