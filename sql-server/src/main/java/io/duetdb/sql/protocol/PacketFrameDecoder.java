package io.duetdb.sql.protocol;

import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * Splits the byte stream into MySQL packets (3-byte length, 1-byte sequence id, payload), joining a payload of
 * 16 MiB - 1 bytes with the packets that continue it. A payload larger than the limit is refused with
 * {@link PacketTooLargeException} before it is buffered. Each call decodes one packet, so the handler sees a
 * packet (and {@link #lastSequenceId()} is its sequence id) before the bytes after it are looked at: after an
 * SSLRequest they are the start of the TLS handshake, which {@link #takeBuffered()} hands to the TLS handler.
 */
final class PacketFrameDecoder extends ByteToMessageDecoder {
    static final int MAX_PAYLOAD_PER_PACKET = 0xFFFFFF;

    private final long maxPacketBytes;
    private CompositeByteBuf partial;
    private int lastSequenceId;

    PacketFrameDecoder(long maxPacketBytes) {
        this.maxPacketBytes = maxPacketBytes;
    }

    /** The sequence id of the last packet read; replies continue from it. */
    int lastSequenceId() {
        return lastSequenceId;
    }

    @Override
    protected void decode(ChannelHandlerContext context, ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= 4) {
            int length = in.getUnsignedMediumLE(in.readerIndex());
            long bufferedSoFar = partial == null ? 0 : partial.readableBytes();
            if (bufferedSoFar + length > maxPacketBytes) {
                in.skipBytes(in.readableBytes());
                releasePartial();
                throw new PacketTooLargeException(bufferedSoFar + length, maxPacketBytes);
            }
            if (in.readableBytes() < 4 + length) {
                return;
            }
            lastSequenceId = in.getUnsignedByte(in.readerIndex() + 3);
            in.skipBytes(4);
            ByteBuf payload = in.readRetainedSlice(length);
            if (length == MAX_PAYLOAD_PER_PACKET) {
                if (partial == null) {
                    partial = context.alloc().compositeBuffer(Integer.MAX_VALUE);
                }
                partial.addComponent(true, payload);
                continue;
            }
            if (partial != null) {
                partial.addComponent(true, payload);
                out.add(partial);
                partial = null;
            } else {
                out.add(payload);
            }
            return;
        }
    }

    /**
     * Takes the bytes received after the packets decoded so far out of the decoder (a client that asked for TLS
     * may send its ClientHello right behind the SSLRequest, in the same read); empty when there are none.
     */
    ByteBuf takeBuffered() {
        ByteBuf buffered = internalBuffer();
        return buffered.isReadable() ? buffered.readBytes(buffered.readableBytes()) : Unpooled.EMPTY_BUFFER;
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext context) {
        releasePartial();
    }

    private void releasePartial() {
        if (partial != null) {
            partial.release();
            partial = null;
        }
    }
}
