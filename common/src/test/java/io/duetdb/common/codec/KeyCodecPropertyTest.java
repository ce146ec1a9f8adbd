package io.duetdb.common.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;

import io.duetdb.common.types.ColumnType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

class KeyCodecPropertyTest {
    @Property(tries = 2000)
    void signedIntegersKeepOrderAndRoundTrip(@ForAll long a, @ForAll long b) {
        byte[] ea = new KeyWriter().writeInt64(a).toByteArray();
        byte[] eb = new KeyWriter().writeInt64(b).toByteArray();
        assertThat(Integer.signum(Arrays.compareUnsigned(ea, eb))).isEqualTo(Integer.signum(Long.compare(a, b)));
        assertThat(new KeyReader(ea).readInt64()).isEqualTo(a);
    }

    @Property(tries = 2000)
    void unsignedIntegersKeepOrderAndRoundTrip(@ForAll long a, @ForAll long b) {
        byte[] ea = new KeyWriter().writeUint64(a).toByteArray();
        byte[] eb = new KeyWriter().writeUint64(b).toByteArray();
        assertThat(Integer.signum(Arrays.compareUnsigned(ea, eb))).isEqualTo(Integer.signum(Long.compareUnsigned(a, b)));
        assertThat(new KeyReader(ea).readUint64()).isEqualTo(a);
    }

    @Property(tries = 2000)
    void doublesKeepOrderAndRoundTrip(@ForAll("doubles") double a, @ForAll("doubles") double b) {
        byte[] ea = new KeyWriter().writeFloat64(a).toByteArray();
        byte[] eb = new KeyWriter().writeFloat64(b).toByteArray();
        double na = a == 0.0 ? 0.0 : a;
        double nb = b == 0.0 ? 0.0 : b;
        assertThat(Integer.signum(Arrays.compareUnsigned(ea, eb))).isEqualTo(Integer.signum(Double.compare(na, nb)));
        assertThat(new KeyReader(ea).readFloat64()).isEqualTo(na);
    }

    @Provide
    Arbitrary<Double> doubles() {
        return Arbitraries.oneOf(Arbitraries.doubles(),
                Arbitraries.of(0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE,
                        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0, -1.0));
    }

    @Property(tries = 3000)
    void bytesKeepOrderRoundTripAndAreSelfDelimiting(@ForAll @Size(max = 40) byte[] a, @ForAll @Size(max = 40) byte[] b) {
        byte[] ea = new KeyWriter().writeBytes(a).writeInt64(7).toByteArray();
        byte[] eb = new KeyWriter().writeBytes(b).writeInt64(3).toByteArray();
        int expected = Integer.signum(Arrays.compareUnsigned(a, b));
        if (expected != 0) {
            // The field after the bytes must not influence the order: the encoding is prefix-free.
            assertThat(Integer.signum(Arrays.compareUnsigned(ea, eb))).isEqualTo(expected);
        }
        KeyReader reader = new KeyReader(ea);
        assertThat(reader.readBytes()).isEqualTo(a);
        assertThat(reader.readInt64()).isEqualTo(7);
        assertThat(reader.hasRemaining()).isFalse();
    }

    @Example
    void bytesWithPrefixRelationsAndZeros() {
        List<byte[]> sorted = List.of(new byte[0], new byte[] {0}, new byte[] {0, 0}, new byte[8], new byte[9],
                new byte[] {1}, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 0},
                new byte[] {(byte) 0xFF});
        for (int i = 0; i + 1 < sorted.size(); i++) {
            byte[] left = new KeyWriter().writeBytes(sorted.get(i)).toByteArray();
            byte[] right = new KeyWriter().writeBytes(sorted.get(i + 1)).toByteArray();
            assertThat(Arrays.compareUnsigned(left, right)).as("element %d", i).isNegative();
        }
    }

    @Property(tries = 3000)
    void decimalsKeepOrderAndRoundTrip(@ForAll("decimals") BigDecimal a, @ForAll("decimals") BigDecimal b) {
        byte[] ea = new KeyWriter().writeDecimal(a).writeByte(0xFF).toByteArray();
        byte[] eb = new KeyWriter().writeDecimal(b).writeByte(0x00).toByteArray();
        int expected = Integer.signum(a.compareTo(b));
        if (expected != 0) {
            assertThat(Integer.signum(Arrays.compareUnsigned(ea, eb))).as("%s vs %s", a, b).isEqualTo(expected);
        } else {
            byte[] pa = new KeyWriter().writeDecimal(a).toByteArray();
            byte[] pb = new KeyWriter().writeDecimal(b).toByteArray();
            assertThat(pa).as("equal values %s and %s encode alike", a, b).isEqualTo(pb);
        }
        KeyReader reader = new KeyReader(ea);
        assertThat(reader.readDecimal()).isEqualByComparingTo(a);
        assertThat(reader.readByte()).isEqualTo(0xFF);
    }

    @Provide
    Arbitrary<BigDecimal> decimals() {
        Arbitrary<BigInteger> unscaled = Arbitraries.oneOf(
                Arbitraries.bigIntegers().between(BigInteger.TEN.pow(40).negate(), BigInteger.TEN.pow(40)),
                Arbitraries.bigIntegers().between(BigInteger.valueOf(-1000), BigInteger.valueOf(1000)));
        return net.jqwik.api.Combinators.combine(unscaled, Arbitraries.integers().between(-30, 30))
                .as(BigDecimal::new);
    }

    @Property(tries = 2000)
    void dateTimesKeepOrderAndRoundTrip(@ForAll("dateTimes") LocalDateTime a, @ForAll("dateTimes") LocalDateTime b) {
        byte[] ea = new KeyWriter().writeDateTime(a).toByteArray();
        byte[] eb = new KeyWriter().writeDateTime(b).toByteArray();
        assertThat(Integer.signum(Arrays.compareUnsigned(ea, eb))).isEqualTo(Integer.signum(a.compareTo(b)));
        assertThat(new KeyReader(ea).readDateTime()).isEqualTo(a);
        LocalDate da = a.toLocalDate();
        assertThat(new KeyReader(new KeyWriter().writeDate(da).toByteArray()).readDate()).isEqualTo(da);
    }

    @Provide
    Arbitrary<LocalDateTime> dateTimes() {
        return Arbitraries.longs().between(
                        LocalDateTime.of(1, 1, 1, 0, 0).toEpochSecond(java.time.ZoneOffset.UTC),
                        LocalDateTime.of(9999, 12, 31, 23, 59, 59).toEpochSecond(java.time.ZoneOffset.UTC))
                .flatMap(seconds -> Arbitraries.integers().between(0, 999_999)
                        .map(micros -> LocalDateTime.ofEpochSecond(seconds, micros * 1000, java.time.ZoneOffset.UTC)));
    }

    @Property(tries = 1000)
    void timesKeepOrderAndRoundTrip(@ForAll("micros") long a, @ForAll("micros") long b) {
        Duration da = Duration.ofNanos(a * 1000);
        Duration db = Duration.ofNanos(b * 1000);
        byte[] ea = new KeyWriter().writeTime(da).toByteArray();
        byte[] eb = new KeyWriter().writeTime(db).toByteArray();
        assertThat(Integer.signum(Arrays.compareUnsigned(ea, eb))).isEqualTo(Integer.signum(da.compareTo(db)));
        assertThat(new KeyReader(ea).readTime()).isEqualTo(da);
    }

    @Provide
    Arbitrary<Long> micros() {
        long max = (838L * 3600 + 59 * 60 + 59) * 1_000_000L + 999_999;
        return Arbitraries.longs().between(-max, max);
    }

    @Property(tries = 1000)
    void stringsKeepBinaryCollationOrder(@ForAll String a, @ForAll String b) {
        byte[] ea = new KeyWriter().writeString(a).toByteArray();
        byte[] eb = new KeyWriter().writeString(b).toByteArray();
        byte[] ua = a.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] ub = b.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(Integer.signum(Arrays.compareUnsigned(ea, eb))).isEqualTo(Integer.signum(Arrays.compareUnsigned(ua, ub)));
    }

    @Property(tries = 1000)
    void nullDatumSortsFirstAndDatumsRoundTrip(@ForAll long value) {
        byte[] nullKey = new KeyWriter().writeDatum(ColumnType.INT64, null).toByteArray();
        byte[] valueKey = new KeyWriter().writeDatum(ColumnType.INT64, value).toByteArray();
        assertThat(Arrays.compareUnsigned(nullKey, valueKey)).isNegative();
        assertThat(Arrays.compareUnsigned(valueKey, new byte[] {(byte) Datum.MAX_FLAG})).isNegative();
        assertThat(new KeyReader(valueKey).readDatum(ColumnType.INT64)).isEqualTo(value);
        assertThat(new KeyReader(nullKey).readDatum(ColumnType.INT64)).isNull();
    }

    @Example
    void everyColumnTypeRoundTripsAsDatum() {
        List<Object[]> cases = List.of(
                new Object[] {ColumnType.INT64, -5L}, new Object[] {ColumnType.UINT64, -1L},
                new Object[] {ColumnType.FLOAT32, 1.5f}, new Object[] {ColumnType.FLOAT64, -2.25},
                new Object[] {ColumnType.DECIMAL, new BigDecimal("-123.450")}, new Object[] {ColumnType.STRING, "héllo"},
                new Object[] {ColumnType.BYTES, new byte[] {0, 1, (byte) 0xFF}},
                new Object[] {ColumnType.DATE, LocalDate.of(2020, 2, 29)},
                new Object[] {ColumnType.DATETIME, LocalDateTime.of(1999, 12, 31, 23, 59, 59, 123_456_000)},
                new Object[] {ColumnType.TIMESTAMP, LocalDateTime.of(2038, 1, 19, 3, 14, 7)},
                new Object[] {ColumnType.TIME, Duration.ofHours(-838)});
        for (Object[] c : cases) {
            ColumnType type = (ColumnType) c[0];
            byte[] key = new KeyWriter().writeDatum(type, c[1]).toByteArray();
            Object decoded = new KeyReader(key).readDatum(type);
            if (c[1] instanceof BigDecimal expected) {
                assertThat((BigDecimal) decoded).isEqualByComparingTo(expected);
            } else {
                assertThat(decoded).as(type.toString()).isEqualTo(c[1]);
            }
        }
    }

    @Example
    void malformedInputIsACodecError() {
        assertThatThrownBy(() -> new KeyReader(new byte[] {1, 2}).readInt64()).isInstanceOf(CodecException.class);
        assertThatThrownBy(() -> new KeyReader(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 0x10}).readBytes())
                .isInstanceOf(CodecException.class);
        assertThatThrownBy(() -> new KeyWriter().writeFloat64(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        byte[] intKey = new KeyWriter().writeDatum(ColumnType.INT64, 1L).toByteArray();
        assertThatThrownBy(() -> new KeyReader(intKey).readDatum(ColumnType.STRING)).isInstanceOf(CodecException.class);
    }
}
