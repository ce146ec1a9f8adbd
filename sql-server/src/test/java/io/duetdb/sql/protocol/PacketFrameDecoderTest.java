package io.duetdb.sql.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;

class PacketFrameDecoderTest {
    private static void packet(ByteBuf out, int sequenceId, String payload) {
        byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
        out.writeMediumLE(bytes.length);
        out.writeByte(sequenceId);
        out.writeBytes(bytes);
    }

    @Test
    void eachPacketReachesTheHandlerWithItsOwnSequenceIdBeforeTheNextIsDecoded() {
        PacketFrameDecoder decoder = new PacketFrameDecoder(1 << 20);
        List<String> seen = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(decoder, new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext context, Object message) {
                ByteBuf packet = (ByteBuf) message;
                String payload = packet.toString(StandardCharsets.UTF_8);
                seen.add(decoder.lastSequenceId() + ":" + payload);
                packet.release();
                if (payload.equals("switch")) {
                    // What the handler does on an SSLRequest: the bytes behind it are not packets.
                    ByteBuf rest = decoder.takeBuffered();
                    seen.add("rest:" + rest.toString(StandardCharsets.UTF_8));
                    rest.release();
                }
            }
        });
        ByteBuf in = Unpooled.buffer();
        packet(in, 0, "first");
        packet(in, 7, "second");
        packet(in, 1, "switch");
        in.writeBytes("\u0016\u0003\u0001hello".getBytes(StandardCharsets.ISO_8859_1));
        channel.writeInbound(in);
        assertThat(seen).containsExactly("0:first", "7:second", "1:switch", "rest:\u0016\u0003\u0001hello");
        assertThat(channel.finish()).isFalse();
    }
}
