package io.duetdb.common.codec;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;

import io.duetdb.common.types.ColumnType;

/**
 * Flagged values in keys: a flag byte names the encoding that follows. The flags follow TiDB's codec so
 * that their order is the same: NULL first, then the value, and a maximum flag for open upper bounds.
 */
public final class Datum {
    public static final int NULL_FLAG = 0x00;
    public static final int BYTES_FLAG = 0x01;
    public static final int INT_FLAG = 0x03;
    public static final int UINT_FLAG = 0x04;
    public static final int FLOAT_FLAG = 0x05;
    public static final int DECIMAL_FLAG = 0x06;
    public static final int DURATION_FLAG = 0x07;
    public static final int MAX_FLAG = 0xFA;

    private Datum() {
    }

    static void write(KeyWriter writer, ColumnType type, Object value) {
        if (value == null) {
            writer.writeByte(NULL_FLAG);
            return;
        }
        type.check(value);
        switch (type) {
            case INT64 -> writer.writeByte(INT_FLAG).writeInt64((Long) value);
            case UINT64 -> writer.writeByte(UINT_FLAG).writeUint64((Long) value);
            case FLOAT32 -> writer.writeByte(FLOAT_FLAG).writeFloat64((Float) value);
            case FLOAT64 -> writer.writeByte(FLOAT_FLAG).writeFloat64((Double) value);
            case DECIMAL -> writer.writeByte(DECIMAL_FLAG).writeDecimal((BigDecimal) value);
            case STRING -> writer.writeByte(BYTES_FLAG).writeBytes(((String) value).getBytes(StandardCharsets.UTF_8));
            case BYTES -> writer.writeByte(BYTES_FLAG).writeBytes((byte[]) value);
            case DATE -> writer.writeByte(UINT_FLAG).writeDate((LocalDate) value);
            case DATETIME, TIMESTAMP -> writer.writeByte(UINT_FLAG).writeDateTime((LocalDateTime) value);
            case TIME -> writer.writeByte(DURATION_FLAG).writeTime((Duration) value);
        }
    }

    static Object read(KeyReader reader, ColumnType type) {
        int flag = reader.readByte();
        if (flag == NULL_FLAG) {
            return null;
        }
        int expected = flagOf(type);
        if (flag != expected) {
            throw new CodecException("expected datum flag " + expected + " for " + type + ", found " + flag);
        }
        return switch (type) {
            case INT64 -> reader.readInt64();
            case UINT64 -> reader.readUint64();
            case FLOAT32 -> (float) reader.readFloat64();
            case FLOAT64 -> reader.readFloat64();
            case DECIMAL -> reader.readDecimal();
            case STRING -> new String(reader.readBytes(), StandardCharsets.UTF_8);
            case BYTES -> reader.readBytes();
            case DATE -> reader.readDate();
            case DATETIME, TIMESTAMP -> reader.readDateTime();
            case TIME -> reader.readTime();
        };
    }

    static int flagOf(ColumnType type) {
        return switch (type) {
            case INT64 -> INT_FLAG;
            case UINT64, DATE, DATETIME, TIMESTAMP -> UINT_FLAG;
            case FLOAT32, FLOAT64 -> FLOAT_FLAG;
            case DECIMAL -> DECIMAL_FLAG;
            case STRING, BYTES -> BYTES_FLAG;
            case TIME -> DURATION_FLAG;
        };
    }
}
