package io.duetdb.cli.bulk;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of a long bulk run: a progress bar with rows, rate and ETA on a terminal; one line every few seconds
 * otherwise (a log, a CI job). Reads the count it is given; closing it prints the final state.
 */
final class TerminalProgress implements AutoCloseable {
    private static final long LINE_SECONDS = 5;

    private final String task;
    private final LongSupplier done;
    private final long total;
    private final PrintStream out;
    private final long started = System.nanoTime();
    private final ProgressBar bar;
    private final ScheduledExecutorService ticker;

    TerminalProgress(String task, LongSupplier done, long total, PrintStream out) {
        this.task = requireNonNull(task, "task is null");
        this.done = requireNonNull(done, "done is null");
        this.total = total;
        this.out = requireNonNull(out, "out is null");
        this.ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "progress");
            thread.setDaemon(true);
            return thread;
        });
        if (System.console() != null) {
            bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(total > 0 ? total : -1)
                    .setStyle(ProgressBarStyle.ASCII).setUnit(" rows", 1).showSpeed()
                    .setConsumer(new ConsoleProgressBarConsumer(out)).build();
            ticker.scheduleAtFixedRate(() -> bar.stepTo(done.getAsLong()), 200, 200, TimeUnit.MILLISECONDS);
        } else {
            bar = null;
            ticker.scheduleAtFixedRate(this::printLine, LINE_SECONDS, LINE_SECONDS, TimeUnit.SECONDS);
        }
    }

    private void printLine() {
        long rows = done.getAsLong();
        double seconds = Math.max(1e-3, (System.nanoTime() - started) / 1e9);
        String of = total > 0 ? String.format(" of ~%,d (%.0f%%)", total, 100.0 * Math.min(rows, total) / total) : "";
        out.printf("%s: %,d rows%s, %,.0f rows/s, %.0f s%n", task, rows, of, rows / seconds, seconds);
        out.flush();
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        if (bar != null) {
            bar.stepTo(done.getAsLong());
            if (total <= 0 || done.getAsLong() >= total) {
                bar.maxHint(done.getAsLong());
            }
            bar.close();
        } else {
            printLine();
        }
    }
}
