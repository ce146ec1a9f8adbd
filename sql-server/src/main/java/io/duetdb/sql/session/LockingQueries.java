package io.duetdb.sql.session;

import java.time.Duration;
import java.util.List;

import org.apache.calcite.rel.RelNode;

import io.duetdb.client.txn.Transaction;
import io.duetdb.sql.exec.ExpressionCompiler;
import io.duetdb.sql.exec.PlanExecutor;
import io.duetdb.sql.parser.dml.SqlQueryWithLocking.WaitPolicy;

/**
 * Runs a query's plan, as a locking read when it has a wait policy (FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE):
 * NOWAIT makes this statement's locks fail at once (3572), SKIP LOCKED passes by the rows others hold. The session
 * sets the transaction's lock wait timeout again before each statement, so NOWAIT lasts one statement.
 */
final class LockingQueries {
    private LockingQueries() {
    }

    /** The rows of {@code plan}; {@code policy} is null for a plain read. */
    static List<Object[]> execute(Transaction transaction, ExpressionCompiler compiler, WaitPolicy policy, RelNode plan) {
        PlanExecutor executor = new PlanExecutor(transaction, compiler, policy != null);
        if (policy == WaitPolicy.SKIP_LOCKED) {
            executor.skippingLocked();
        }
        if (policy == WaitPolicy.NOWAIT && transaction != null) {
            transaction.setLockWaitTimeout(Duration.ZERO);
        }
        return executor.execute(plan);
    }

    /** innodb_lock_wait_timeout (seconds) as a duration; MySQL's range is 1 to 1073741824. */
    static Duration lockWaitTimeout(String seconds) {
        try {
            return Duration.ofSeconds(Math.max(1, Long.parseLong(seconds.trim())));
        } catch (NumberFormatException e) {
            return Duration.ofSeconds(50);
        }
    }
}
