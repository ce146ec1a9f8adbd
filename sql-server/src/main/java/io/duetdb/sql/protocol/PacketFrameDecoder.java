package io.duetdb.sql.protocol;

import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * Splits the byte stream into MySQL packets (3-byte length, 1-byte sequence id, payload), joining a payload of
 * 16 MiB - 1 bytes with the packets that continue it. A payload larger than the limit is refused with
 * {@link PacketTooLargeException} before it is buffered.
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
        }
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
