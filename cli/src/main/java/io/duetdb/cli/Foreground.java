package io.duetdb.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs a server in the foreground until SIGTERM or Ctrl-C. The shutdown hook is in place before the server
 * starts, so a server that still waits for the rest of the cluster stops cleanly too.
 */
final class Foreground {
    private Foreground() {
    }

    /** Starts {@code server} with {@code start} and blocks until the process is asked to stop; returns 0. */
    static int run(AutoCloseable server, Runnable start) throws InterruptedException {
        AtomicBoolean stopping = new AtomicBoolean();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopping.set(true);
            try {
                server.close();
            } catch (Exception e) {
                // The server logs its own failures while stopping; the process ends either way.
            }
            stopped.countDown();
        }, "shutdown"));
        try {
            start.run();
        } catch (RuntimeException e) {
            if (stopping.get()) {
                return 0;
            }
            throw e;
        }
        stopped.await();
        return 0;
    }
}
