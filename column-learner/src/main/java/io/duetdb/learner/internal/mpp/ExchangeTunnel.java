package io.duetdb.learner.internal.mpp;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import io.duetdb.proto.mpp.MppDataPacket;
import io.duetdb.proto.mpp.MppError;

/**
 * The batches one task sends to one receiver, held until the receiver's connection takes them: a few packets, so
 * that a slow receiver slows its sender down instead of filling memory. Ends with an empty packet (done) or an
 * error packet. A receiver that goes away cancels it, and the sender's next {@link #send} fails.
 */
final class ExchangeTunnel {
    static final int CAPACITY = 8;
    private static final MppDataPacket END = MppDataPacket.getDefaultInstance();

    private final BlockingQueue<MppDataPacket> packets = new ArrayBlockingQueue<>(CAPACITY);
    private final long deadlineNanos;
    private volatile String cancelled;

    ExchangeTunnel(long deadlineNanos) {
        this.deadlineNanos = deadlineNanos;
    }

    /** Waits for room; fails when the receiver went away or the task's time is up. */
    void send(MppDataPacket packet) {
        try {
            while (!packets.offer(packet, 50, TimeUnit.MILLISECONDS)) {
                checkOpen();
            }
            checkOpen();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw MppTaskException.of("the task was interrupted while sending");
        }
    }

    private void checkOpen() {
        if (cancelled != null) {
            throw MppTaskException.of("the receiver went away: " + cancelled);
        }
        if (System.nanoTime() - deadlineNanos > 0) {
            throw MppTaskException.of("the receiver did not take the task's batches in time");
        }
    }

    void finish() {
        send(END);
    }

    /** Ends the stream with an error, dropping what the receiver has not taken (it fails anyway). */
    void fail(MppError error) {
        packets.clear();
        packets.offer(MppDataPacket.newBuilder().setError(error).build());
    }

    void cancel(String why) {
        cancelled = why;
        packets.clear();
    }

    /** The next packet, or null when {@code millis} passed without one. */
    MppDataPacket poll(long millis) throws InterruptedException {
        return packets.poll(millis, TimeUnit.MILLISECONDS);
    }

    static boolean isEnd(MppDataPacket packet) {
        return packet.getArrowIpc().isEmpty() && !packet.hasError();
    }

    boolean cancelled() {
        return cancelled != null;
    }
}
