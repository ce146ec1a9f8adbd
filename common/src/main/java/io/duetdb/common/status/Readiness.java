package io.duetdb.common.status;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.slf4j.Logger;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * What a component waits for before it serves (placement members, a leader, a bootstrapped cluster, ...). A
 * wait is logged once when it begins or turns into a wait for something else, and again as a reminder every
 * {@link #REMINDER_INTERVAL} while it lasts; the status port shows it, so that operators and orchestrators
 * see why a component does not serve yet. Components started in any order wait for each other this way;
 * only a bad configuration ends them.
 */
public final class Readiness {
    public static final Duration REMINDER_INTERVAL = Duration.ofSeconds(10);

    /** Thrown by a {@link Check} while what the component needs is not there yet. */
    public static final class NotReady extends Exception {
        private static final long serialVersionUID = 1L;

        private final String what;
        private final String detail;

        /**
         * @param what what the component waits for, stable while the wait lasts ("placement leader")
         * @param detail the current particulars (which members answer, the last error), shown but not compared
         */
        public NotReady(String what, String detail) {
            super(what + ": " + detail, null, false, false);
            this.what = requireNonNull(what, "what is null");
            this.detail = requireNonNull(detail, "detail is null");
        }

        public String what() {
            return what;
        }

        public String detail() {
            return detail;
        }
    }

    /** One look at whether what the component needs is there. */
    @FunctionalInterface
    public interface Check<T> {
        /** The result once it is there; throws {@link NotReady} while it is not, any other exception to give up. */
        T attempt() throws NotReady;
    }

    private enum State {
        STARTING, WAITING, SERVING, STOPPED;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Logger log;
    private final LongSupplier clock;
    private final long reminderNanos;
    private State state = State.STARTING;
    private String waitingFor;
    private String detail;
    private long waitingSinceNanos;
    private long loggedAtNanos;
    private Thread waiter;

    /** @param log the component's logger: the wait lines carry its name and node */
    public Readiness(Logger log) {
        this(log, System::nanoTime, REMINDER_INTERVAL);
    }

    Readiness(Logger log, LongSupplier clock, Duration reminderInterval) {
        this.log = requireNonNull(log, "log is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.reminderNanos = requireNonNull(reminderInterval, "reminderInterval is null").toNanos();
    }

    /**
     * Records that the component waits for {@code what}: one log line when this wait begins or differs from the
     * previous one, then a reminder at most every {@link #REMINDER_INTERVAL}.
     */
    public synchronized void waitingFor(String what, String detail) {
        requireNonNull(what, "what is null");
        requireNonNull(detail, "detail is null");
        if (state == State.STOPPED) {
            return;
        }
        long now = clock.getAsLong();
        if (state != State.WAITING || !what.equals(waitingFor)) {
            state = State.WAITING;
            waitingFor = what;
            waitingSinceNanos = now;
            loggedAtNanos = now;
            this.detail = detail;
            log.info("waiting for {}: {}", what, detail);
            return;
        }
        this.detail = detail;
        if (now - loggedAtNanos >= reminderNanos) {
            loggedAtNanos = now;
            log.info("still waiting for {} after {} s: {}", what, TimeUnit.NANOSECONDS.toSeconds(now - waitingSinceNanos),
                    detail);
        }
    }

    /** Records that the component serves; logs how long it waited if it did. */
    public synchronized void serving() {
        if (state == State.WAITING) {
            log.info("done waiting for {} after {} ms", waitingFor,
                    TimeUnit.NANOSECONDS.toMillis(clock.getAsLong() - waitingSinceNanos));
        }
        if (state != State.STOPPED) {
            state = State.SERVING;
            waitingFor = null;
            detail = null;
        }
    }

    public synchronized boolean isServing() {
        return state == State.SERVING;
    }

    /** What the component waits for, or null when it does not wait. */
    public synchronized String waitingFor() {
        return state == State.WAITING ? waitingFor : null;
    }

    /**
     * Runs {@code check} every {@code poll} until it answers, recording each {@link NotReady} as the current
     * wait. Throws {@link DuetException} ({@link ErrorCode#SERVER_SHUTDOWN}) when {@link #stop()} ends the wait.
     */
    public <T> T await(Check<T> check, Duration poll) {
        requireNonNull(check, "check is null");
        synchronized (this) {
            requireRunning();
            waiter = Thread.currentThread();
        }
        try {
            while (true) {
                try {
                    return check.attempt();
                } catch (NotReady notReady) {
                    waitingFor(notReady.what(), notReady.detail());
                }
                synchronized (this) {
                    requireRunning();
                }
                try {
                    Thread.sleep(poll.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    synchronized (this) {
                        requireRunning();
                    }
                    throw new DuetException(ErrorCode.SERVER_SHUTDOWN, "interrupted while waiting for " + waitingFor());
                }
            }
        } finally {
            synchronized (this) {
                waiter = null;
                if (state == State.STOPPED) {
                    Thread.interrupted();
                }
            }
        }
    }

    private void requireRunning() {
        if (state == State.STOPPED) {
            throw new DuetException(ErrorCode.SERVER_SHUTDOWN, "stopped" + (waitingFor == null ? ""
                    : " while waiting for " + waitingFor));
        }
    }

    /** Ends a wait in progress (the component is being closed) and any later one. */
    public synchronized void stop() {
        state = State.STOPPED;
        if (waiter != null) {
            waiter.interrupt();
        }
    }

    /** The fields the status port shows: {@code state}, and while waiting {@code waitingFor}, {@code detail}. */
    public synchronized Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("state", state.label());
        if (state == State.WAITING) {
            status.put("waitingFor", waitingFor);
            status.put("detail", detail);
            status.put("waitingSeconds", TimeUnit.NANOSECONDS.toSeconds(clock.getAsLong() - waitingSinceNanos));
        }
        return status;
    }
}
