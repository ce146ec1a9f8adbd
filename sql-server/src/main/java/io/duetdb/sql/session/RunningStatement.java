package io.duetdb.sql.session;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * The statement a session runs, as KILL QUERY and SHOW PROCESSLIST see it. KILL QUERY marks it killed and, while
 * it is in an interruptible phase (its reads, writes and lock waits, never a commit, a rollback or DDL), interrupts
 * its thread: Thread.sleep and gRPC calls give up at once, and the executor's loops and SLEEP() look at the mark.
 * DDL polls the mark between batches.
 */
final class RunningStatement {
    /** Guards thread and interruptible: KILL QUERY interrupts only a thread in an interruptible phase. */
    private final Object interruption = new Object();
    private Thread thread;
    private boolean interruptible;
    private volatile boolean killed;
    private volatile String text = "";
    /** SHOW PROCESSLIST's State: "executing", or MySQL's "User sleep" in SLEEP(). */
    private volatile String state = "";
    private volatile long startNanos;

    /** A statement starts on this thread. */
    void start(String sql) {
        synchronized (interruption) {
            thread = Thread.currentThread();
            interruptible = false;
            killed = false;
        }
        shown(sql, System.nanoTime());
    }

    /** Shows a statement in the process list that runs without a thread of its own (a read answered later). */
    void shown(String sql, long startNanos) {
        text = sql;
        state = "executing";
        this.startNanos = startNanos;
    }

    /** The statement shown without a thread has ended. */
    void hidden() {
        text = "";
    }

    void end() {
        synchronized (interruption) {
            thread = null;
            interruptible = false;
        }
        // An interrupt that arrived after the statement's last interruptible phase must not reach the next one.
        Thread.interrupted();
        text = "";
    }

    /** Runs a phase KILL QUERY may interrupt; leaves the thread uninterrupted, so cleanup can talk to the stores. */
    <T> T interruptibly(Supplier<T> phase) {
        synchronized (interruption) {
            interruptible = thread == Thread.currentThread();
        }
        try {
            checkNotKilled();
            return phase.get();
        } finally {
            synchronized (interruption) {
                interruptible = false;
            }
            Thread.interrupted();
        }
    }

    /** A failure of a killed statement is reported as MySQL reports it: 1317. */
    RuntimeException killedOr(RuntimeException failure) {
        if (!killed || failure instanceof DuetException duet && duet.code() == ErrorCode.QUERY_INTERRUPTED) {
            return failure;
        }
        return interrupted();
    }

    /** KILL QUERY; false when no statement runs. */
    boolean kill() {
        synchronized (interruption) {
            if (thread == null) {
                return false;
            }
            killed = true;
            if (interruptible) {
                thread.interrupt();
            }
            return true;
        }
    }

    boolean killed() {
        return killed;
    }

    void checkNotKilled() {
        if (killed) {
            throw interrupted();
        }
    }

    /** MySQL's SLEEP(seconds): 0 when it slept the whole time, 1 when the statement was killed meanwhile. */
    long sleep(double seconds) {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        state = "User sleep";
        try {
            while (!killed) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return 0;
                }
                try {
                    Thread.sleep(Math.min(TimeUnit.NANOSECONDS.toMillis(remaining) + 1, 1000));
                } catch (InterruptedException e) {
                    return 1;
                }
            }
            // MySQL's SLEEP returns 1 when interrupted; the statement fails only if it goes on to other work.
            return 1;
        } finally {
            state = "executing";
        }
    }

    /** The running statement's text; empty when none runs. */
    String text() {
        return text;
    }

    String state() {
        return state;
    }

    long runningSeconds() {
        return text.isEmpty() ? 0 : (System.nanoTime() - startNanos) / 1_000_000_000L;
    }

    private static DuetException interrupted() {
        return new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
    }
}
