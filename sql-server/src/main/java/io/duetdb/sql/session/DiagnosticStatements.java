package io.duetdb.sql.session;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;

import io.duetdb.sql.parser.VariableReferences;
import io.duetdb.sql.parser.show.SqlShow;

/**
 * Statements that read the diagnostics of the statement before them, which therefore keep its warnings (MySQL's
 * rule): SHOW WARNINGS, SHOW ERRORS, SHOW COUNT(*) WARNINGS / ERRORS, and SELECT @@warning_count or @@error_count.
 */
final class DiagnosticStatements {
    private DiagnosticStatements() {
    }

    static boolean readsDiagnostics(SqlNode statement) {
        if (statement instanceof SqlShow show) {
            return switch (show.kind()) {
                case WARNINGS, ERRORS, WARNING_COUNT, ERROR_COUNT -> true;
                default -> false;
            };
        }
        if (statement instanceof SqlSelect select && !select.getSelectList().isEmpty()) {
            String variable = VariableReferences.systemVariableOf(select.getSelectList().get(0));
            return "warning_count".equals(variable) || "error_count".equals(variable);
        }
        return false;
    }
}
