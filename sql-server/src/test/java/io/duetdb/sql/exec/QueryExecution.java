package io.duetdb.sql.exec;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.parser.StatementParser;
import io.duetdb.sql.prepare.CalciteCatalog;
import io.duetdb.sql.prepare.QueryPlanner;

/** Plans and runs table-free queries (VALUES, sub-queries) in the executor, rows rendered as "a|b|c". */
final class QueryExecution {
    private QueryExecution() {
    }

    static QueryPlanner.PlannedQuery plan(String sql) {
        return new QueryPlanner(new CalciteCatalog(new InfoSchema(1, List.of(), List.of())), null)
                .plan(StatementParser.parse(sql));
    }

    static ExpressionCompiler compiler(org.apache.calcite.rel.RelNode plan) {
        return new ExpressionCompiler(plan.getCluster().getRexBuilder(), new FixedSession(), List.of());
    }

    static List<String> rows(String sql) {
        QueryPlanner.PlannedQuery planned = plan(sql);
        ExpressionCompiler compiler = new ExpressionCompiler(planned.plan().getCluster().getRexBuilder(),
                new FixedSession(), List.of());
        List<String> rows = new ArrayList<>();
        for (Object[] row : new PlanExecutor(null, compiler, false).execute(planned.plan())) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                text.append(i == 0 ? "" : "|").append(row[i] == null ? "null" : Values.toText(row[i]));
            }
            rows.add(text.toString());
        }
        return rows;
    }

    private static final class FixedSession implements SessionFunctions {
        @Override
        public String currentDatabase() {
            return null;
        }

        @Override
        public long connectionId() {
            return 1;
        }

        @Override
        public long lastInsertId() {
            return 0;
        }

        @Override
        public String user() {
            return "root@localhost";
        }

        @Override
        public String serverVersion() {
            return "8.0.11-DuetDB";
        }

        @Override
        public LocalDateTime statementTime() {
            return LocalDateTime.of(2026, 1, 31, 12, 0);
        }

        @Override
        public Object systemVariable(String scope, String name) {
            return null;
        }

        @Override
        public void checkNotKilled() {
        }

        @Override
        public long sleep(double seconds) {
            return 0;
        }
    }
}
