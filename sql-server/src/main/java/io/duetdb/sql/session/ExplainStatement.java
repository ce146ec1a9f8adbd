package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.sql.SqlNode;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.exec.ExpressionCompiler;
import io.duetdb.sql.exec.PlanExecutor;
import io.duetdb.sql.exec.PlanExplainer;
import io.duetdb.sql.parser.dml.SqlExplainQuery;
import io.duetdb.sql.parser.dml.SqlQueryWithLocking;
import io.duetdb.sql.prepare.QueryPlanner;

/**
 * EXPLAIN [ANALYZE] of a query in TiDB's columns. A locking query's plan is the query's own with a SelectLock line
 * above where its rows are read; EXPLAIN ANALYZE runs it as a locking read.
 */
final class ExplainStatement {
    private final Session session;
    private final Transaction transaction;

    ExplainStatement(Session session, Transaction transaction) {
        this.session = requireNonNull(session, "session is null");
        this.transaction = requireNonNull(transaction, "transaction is null");
    }

    QueryResult run(SqlExplainQuery explain) {
        SqlNode query = explain.query();
        String lock = null;
        SqlQueryWithLocking.WaitPolicy policy = null;
        if (query instanceof SqlQueryWithLocking locking) {
            query = locking.query();
            lock = locking.description();
            policy = locking.waitPolicy();
        }
        QueryPlanner.PlannedQuery planned = session.planner().plan(query);
        session.requireSelect(planned);
        ExpressionCompiler compiler = new ExpressionCompiler(planned.plan().getCluster().getRexBuilder(), session,
                List.of());
        PlanExecutor run = null;
        if (explain.analyze()) {
            run = new PlanExecutor(transaction, compiler, lock != null).recordingStatistics();
            if (policy == SqlQueryWithLocking.WaitPolicy.SKIP_LOCKED) {
                run.skippingLocked();
            }
            if (policy == SqlQueryWithLocking.WaitPolicy.NOWAIT) {
                transaction.setLockWaitTimeout(Duration.ZERO);
            }
            run.execute(planned.plan());
        }
        List<Object[]> rows = new ArrayList<>();
        for (PlanExplainer.Line line : new PlanExplainer(transaction, compiler, run).explain(planned.plan(), lock)) {
            rows.add(explain.analyze()
                    ? new Object[] {line.id(), line.estimatedRows(), line.actualRows(), line.task(), line.accessObject(),
                            line.executionInfo(), line.operatorInfo(), line.memory()}
                    : new Object[] {line.id(), line.estimatedRows(), line.task(), line.accessObject(), line.operatorInfo()});
        }
        return new QueryResult(columns(explain.analyze()), rows);
    }

    private static List<ResultColumn> columns(boolean analyze) {
        List<ResultColumn> columns = new ArrayList<>();
        columns.add(ResultColumn.computed("id", SqlType.varchar(256)));
        columns.add(ResultColumn.computed("estRows", SqlType.varchar(32)));
        if (analyze) {
            columns.add(ResultColumn.computed("actRows", SqlType.varchar(32)));
        }
        columns.add(ResultColumn.computed("task", SqlType.varchar(32)));
        columns.add(ResultColumn.computed("access object", SqlType.varchar(256)));
        if (analyze) {
            columns.add(ResultColumn.computed("execution info", SqlType.varchar(256)));
        }
        columns.add(ResultColumn.computed("operator info", SqlType.varchar(4096)));
        if (analyze) {
            columns.add(ResultColumn.computed("memory", SqlType.varchar(32)));
        }
        return columns;
    }
}
