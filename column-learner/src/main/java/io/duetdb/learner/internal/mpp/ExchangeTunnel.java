package io.duetdb.learner.internal.mpp;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import io.duetdb.proto.mpp.MppDataPacket;
import io.duetdb.proto.mpp.MppError;

/**
 * The batches one task sends to one receiver, held until the receiver's connection takes them: a few packets, so
 * that a slow receiver slows its sender down instead of filling memory. Ends with an empty packet (done) or an
 * error packet. A receiver may go away before the end (a join whose build side came out empty no longer reads its
 * probe side): what is sent to it after that is dropped, and the sender goes on for its other receivers.
 */
final class ExchangeTunnel {
    static final int CAPACITY = 8;
    private static final MppDataPacket END = MppDataPacket.getDefaultInstance();

    private final BlockingQueue<MppDataPacket> packets = new ArrayBlockingQueue<>(CAPACITY);
    private final long deadlineNanos;
    private final Cancellation cancellation;
    private volatile boolean gone;

    ExchangeTunnel(long deadlineNanos, Cancellation cancellation) {
        this.deadlineNanos = deadlineNanos;
        this.cancellation = cancellation;
    }

    /** Waits for room; drops the packet when the receiver went away; fails when the task stops or its time is up. */
    void send(MppDataPacket packet) {
        try {
            while (!gone && !packets.offer(packet, 50, TimeUnit.MILLISECONDS)) {
                cancellation.check();
                if (System.nanoTime() - deadlineNanos > 0) {
                    throw MppTaskException.of("the receiver did not take the task's batches in time");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw MppTaskException.of("the task was interrupted while sending");
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

    /** The receiver closed its connection: nothing more is kept for it. */
    void receiverGone() {
        gone = true;
        packets.clear();
    }

    /** The next packet, or null when {@code millis} passed without one. */
    MppDataPacket poll(long millis) throws InterruptedException {
        return packets.poll(millis, TimeUnit.MILLISECONDS);
    }

    static boolean isEnd(MppDataPacket packet) {
        return packet.getArrowIpc().isEmpty() && !packet.hasError();
    }

    boolean gone() {
        return gone;
    }
}
