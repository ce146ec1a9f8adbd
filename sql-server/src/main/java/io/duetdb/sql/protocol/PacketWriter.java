package io.duetdb.sql.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;

/** Frames payloads into packets with consecutive sequence ids, splitting payloads of 16 MiB or more. */
final class PacketWriter {
    private final Channel channel;
    private int sequenceId;

    PacketWriter(Channel channel) {
        this.channel = channel;
    }

    ByteBufAllocator alloc() {
        return channel.alloc();
    }

    ByteBuf newPayload() {
        return channel.alloc().buffer(64);
    }

    /** Replies to a packet continue its sequence. */
    void startReplyTo(int requestSequenceId) {
        sequenceId = requestSequenceId + 1;
    }

    void write(ByteBuf payload) {
        try {
            int remaining = payload.readableBytes();
            do {
                int chunk = Math.min(remaining, PacketFrameDecoder.MAX_PAYLOAD_PER_PACKET);
                ByteBuf packet = channel.alloc().buffer(4 + chunk);
                packet.writeMediumLE(chunk);
                packet.writeByte(sequenceId++ & 0xFF);
                packet.writeBytes(payload, chunk);
                channel.write(packet);
                remaining -= chunk;
                if (remaining == 0 && chunk == PacketFrameDecoder.MAX_PAYLOAD_PER_PACKET) {
                    ByteBuf empty = channel.alloc().buffer(4);
                    empty.writeMediumLE(0);
                    empty.writeByte(sequenceId++ & 0xFF);
                    channel.write(empty);
                }
            } while (remaining > 0);
        } finally {
            payload.release();
        }
    }

    void flush() {
        channel.flush();
    }
}
