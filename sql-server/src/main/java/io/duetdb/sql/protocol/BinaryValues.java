package io.duetdb.sql.protocol;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;

import io.duetdb.common.types.SqlType;
import io.netty.buffer.ByteBuf;

/** The binary protocol's values: prepared-statement parameters in, result rows out. */
final class BinaryValues {
    private BinaryValues() {
    }

    /** Reads one parameter of the given type code (high bit of the flags byte: unsigned). */
    static Object readParameter(ByteBuf in, int typeCode, boolean unsigned) {
        switch (typeCode) {
            case WireTypes.NULL:
                return null;
            case WireTypes.TINY:
                return unsigned ? (long) in.readUnsignedByte() : (long) in.readByte();
            case WireTypes.SHORT:
            case WireTypes.YEAR:
                return unsigned ? (long) in.readUnsignedShortLE() : (long) in.readShortLE();
            case WireTypes.LONG:
            case WireTypes.INT24:
                return unsigned ? in.readUnsignedIntLE() : (long) in.readIntLE();
            case WireTypes.LONGLONG: {
                long value = in.readLongLE();
                if (unsigned && value < 0) {
                    return new BigDecimal(new BigInteger(Long.toUnsignedString(value)));
                }
                return value;
            }
            case WireTypes.FLOAT:
                return (double) in.readFloatLE();
            case WireTypes.DOUBLE:
                return in.readDoubleLE();
            case WireTypes.DATE:
            case WireTypes.DATETIME:
            case WireTypes.TIMESTAMP:
                return readDateTime(in, typeCode == WireTypes.DATE);
            case WireTypes.TIME:
                return readTime(in);
            case WireTypes.DECIMAL:
            case WireTypes.NEWDECIMAL: {
                String text = new String(Packets.readLengthEncodedBytes(in), StandardCharsets.UTF_8);
                return new BigDecimal(text.strip());
            }
            case WireTypes.BLOB:
            case 0xF9:
            case 0xFA:
            case 0xFB:
                return Packets.readLengthEncodedBytes(in);
            default:
                return stringOrBytes(Packets.readLengthEncodedBytes(in));
        }
    }

    /**
     * A string parameter as text when it is UTF-8, else as its bytes: clients send byte arrays as strings too
     * (Go's driver sends []byte as MYSQL_TYPE_STRING), and a VARBINARY or BLOB column must get them unchanged.
     */
    static Object stringOrBytes(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return bytes;
        }
    }

    private static Object readDateTime(ByteBuf in, boolean dateOnly) {
        int length = in.readUnsignedByte();
        if (length == 0) {
            return dateOnly ? LocalDate.of(0, 1, 1) : LocalDateTime.of(0, 1, 1, 0, 0);
        }
        int year = in.readUnsignedShortLE();
        int month = in.readUnsignedByte();
        int day = in.readUnsignedByte();
        int hour = 0;
        int minute = 0;
        int second = 0;
        int micros = 0;
        if (length >= 7) {
            hour = in.readUnsignedByte();
            minute = in.readUnsignedByte();
            second = in.readUnsignedByte();
        }
        if (length >= 11) {
            micros = (int) in.readUnsignedIntLE();
        }
        if (dateOnly) {
            return LocalDate.of(year, month, day);
        }
        return LocalDateTime.of(year, month, day, hour, minute, second, micros * 1000);
    }

    private static Object readTime(ByteBuf in) {
        int length = in.readUnsignedByte();
        if (length == 0) {
            return Duration.ZERO;
        }
        boolean negative = in.readUnsignedByte() == 1;
        long days = in.readUnsignedIntLE();
        int hours = in.readUnsignedByte();
        int minutes = in.readUnsignedByte();
        int seconds = in.readUnsignedByte();
        long micros = length >= 12 ? in.readUnsignedIntLE() : 0;
        Duration duration = Duration.ofDays(days).plusHours(hours).plusMinutes(minutes).plusSeconds(seconds)
                .plusNanos(micros * 1000);
        return negative ? duration.negated() : duration;
    }

    /** Writes a non-null value in the binary form of its column's wire type. */
    static void writeValue(ByteBuf out, Object value, SqlType type) {
        int code = WireTypes.typeCode(type);
        switch (code) {
            case WireTypes.TINY -> out.writeByte((int) longValue(value));
            case WireTypes.SHORT, WireTypes.YEAR -> out.writeShortLE((int) longValue(value));
            case WireTypes.LONG, WireTypes.INT24 -> out.writeIntLE((int) longValue(value));
            case WireTypes.LONGLONG -> out.writeLongLE(value instanceof BigDecimal decimal
                    ? decimal.toBigInteger().longValue() : longValue(value));
            case WireTypes.FLOAT -> out.writeFloatLE((float) ((Number) value).doubleValue());
            case WireTypes.DOUBLE -> out.writeDoubleLE(((Number) value).doubleValue());
            case WireTypes.DATE, WireTypes.DATETIME, WireTypes.TIMESTAMP -> writeDateTime(out, value);
            case WireTypes.TIME -> writeTime(out, (Duration) value);
            case WireTypes.NULL -> {
            }
            default -> Packets.writeLengthEncodedBytes(out, WireTypes.text(value, type));
        }
    }

    private static long longValue(Object value) {
        if (value instanceof Boolean bool) {
            return bool ? 1 : 0;
        }
        return ((Number) value).longValue();
    }

    private static void writeDateTime(ByteBuf out, Object value) {
        LocalDateTime dateTime = value instanceof LocalDate date ? date.atStartOfDay() : (LocalDateTime) value;
        int micros = dateTime.getNano() / 1000;
        boolean hasTime = dateTime.getHour() != 0 || dateTime.getMinute() != 0 || dateTime.getSecond() != 0
                || micros != 0;
        out.writeByte(micros != 0 ? 11 : hasTime ? 7 : 4);
        out.writeShortLE(dateTime.getYear());
        out.writeByte(dateTime.getMonthValue());
        out.writeByte(dateTime.getDayOfMonth());
        if (hasTime || micros != 0) {
            out.writeByte(dateTime.getHour());
            out.writeByte(dateTime.getMinute());
            out.writeByte(dateTime.getSecond());
        }
        if (micros != 0) {
            out.writeIntLE(micros);
        }
    }

    private static void writeTime(ByteBuf out, Duration value) {
        Duration absolute = value.abs();
        int micros = absolute.toNanosPart() / 1000;
        out.writeByte(micros != 0 ? 12 : 8);
        out.writeByte(value.isNegative() ? 1 : 0);
        out.writeIntLE((int) absolute.toDaysPart());
        out.writeByte(absolute.toHoursPart());
        out.writeByte(absolute.toMinutesPart());
        out.writeByte(absolute.toSecondsPart());
        if (micros != 0) {
            out.writeIntLE(micros);
        }
    }
}
