package io.duetdb.sql.protocol;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;

/** Reading and writing MySQL's basic types: fixed little-endian integers, length-encoded integers and strings. */
final class Packets {
    private Packets() {
    }

    static void writeLengthEncodedInteger(ByteBuf out, long value) {
        if (value >= 0 && value < 251) {
            out.writeByte((int) value);
        } else if (value >= 0 && value < (1 << 16)) {
            out.writeByte(0xFC);
            out.writeShortLE((int) value);
        } else if (value >= 0 && value < (1 << 24)) {
            out.writeByte(0xFD);
            out.writeMediumLE((int) value);
        } else {
            out.writeByte(0xFE);
            out.writeLongLE(value);
        }
    }

    static void writeLengthEncodedBytes(ByteBuf out, byte[] value) {
        writeLengthEncodedInteger(out, value.length);
        out.writeBytes(value);
    }

    static void writeLengthEncodedString(ByteBuf out, String value) {
        writeLengthEncodedBytes(out, value.getBytes(StandardCharsets.UTF_8));
    }

    static void writeNullTerminatedString(ByteBuf out, String value) {
        out.writeBytes(value.getBytes(StandardCharsets.UTF_8));
        out.writeByte(0);
    }

    static long readLengthEncodedInteger(ByteBuf in) {
        int first = in.readUnsignedByte();
        if (first < 0xFB) {
            return first;
        }
        return switch (first) {
            case 0xFC -> in.readUnsignedShortLE();
            case 0xFD -> in.readUnsignedMediumLE();
            case 0xFE -> in.readLongLE();
            default -> throw new MalformedPacketException("invalid length-encoded integer prefix 0x"
                    + Integer.toHexString(first));
        };
    }

    static byte[] readLengthEncodedBytes(ByteBuf in) {
        long length = readLengthEncodedInteger(in);
        if (length < 0 || length > in.readableBytes()) {
            throw new MalformedPacketException("length " + length + " beyond the packet's " + in.readableBytes()
                    + " remaining bytes");
        }
        byte[] bytes = new byte[(int) length];
        in.readBytes(bytes);
        return bytes;
    }

    static String readNullTerminatedString(ByteBuf in) {
        int end = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) 0);
        if (end < 0) {
            throw new MalformedPacketException("string without its terminating zero byte");
        }
        String value = in.toString(in.readerIndex(), end - in.readerIndex(), StandardCharsets.UTF_8);
        in.readerIndex(end + 1);
        return value;
    }

    static String readRestAsString(ByteBuf in) {
        String value = in.toString(StandardCharsets.UTF_8);
        in.readerIndex(in.writerIndex());
        return value;
    }
}
