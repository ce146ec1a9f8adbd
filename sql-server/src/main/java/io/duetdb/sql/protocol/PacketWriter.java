package io.duetdb.sql.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;

/**
 * Frames payloads into packets with consecutive sequence ids, splitting payloads of 16 MiB or more. A reply's
 * packets gather in one buffer that goes to the channel at {@link #flush} (or whenever it passes
 * {@link #WRITE_THRESHOLD}): commands run off the event loop, where each channel write is a task handed to the loop,
 * and a result of a hundred rows wrote a hundred of them. Synchronized: the event loop may answer (a packet too large)
 * while a command's thread writes.
 */
final class PacketWriter {
    /** Gathered bytes past which they go to the channel before the reply ends, so a large result is not held whole. */
    static final int WRITE_THRESHOLD = 64 * 1024;

    private final Channel channel;
    private int sequenceId;
    private ByteBuf pending;

    PacketWriter(Channel channel) {
        this.channel = channel;
    }

    ByteBufAllocator alloc() {
        return channel.alloc();
    }

    /**
     * A payload to fill and {@link #write}: a heap buffer, since its bytes are copied into the reply's one pooled
     * buffer (a pooled one per packet cost an allocation and leak tracking each).
     */
    ByteBuf newPayload() {
        return Unpooled.buffer(64);
    }

    /** Replies to a packet continue its sequence. */
    synchronized void startReplyTo(int requestSequenceId) {
        sequenceId = requestSequenceId + 1;
    }

    synchronized void write(ByteBuf payload) {
        try {
            int remaining = payload.readableBytes();
            do {
                int chunk = Math.min(remaining, PacketFrameDecoder.MAX_PAYLOAD_PER_PACKET);
                ByteBuf out = pending(4 + chunk);
                out.writeMediumLE(chunk);
                out.writeByte(sequenceId++ & 0xFF);
                out.writeBytes(payload, chunk);
                remaining -= chunk;
                if (remaining == 0 && chunk == PacketFrameDecoder.MAX_PAYLOAD_PER_PACKET) {
                    out = pending(4);
                    out.writeMediumLE(0);
                    out.writeByte(sequenceId++ & 0xFF);
                }
                if (pending.readableBytes() >= WRITE_THRESHOLD) {
                    writePending();
                }
            } while (remaining > 0);
        } finally {
            payload.release();
        }
    }

    /** Writes each payload as a packet of its own. */
    synchronized void write(byte[][] payloads) {
        for (byte[] payload : payloads) {
            write(Unpooled.wrappedBuffer(payload));
        }
    }

    private ByteBuf pending(int bytes) {
        if (pending == null) {
            pending = channel.alloc().ioBuffer(Math.max(256, bytes));
        }
        return pending;
    }

    private void writePending() {
        if (pending != null) {
            ByteBuf out = pending;
            pending = null;
            channel.write(out);
        }
    }

    /** Sends what was written, without flushing (a close that follows flushes it). */
    synchronized void send() {
        writePending();
    }

    /** Drops what was not sent (the connection is gone). */
    synchronized void discard() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }

    synchronized void flush() {
        writePending();
        channel.flush();
    }
}
