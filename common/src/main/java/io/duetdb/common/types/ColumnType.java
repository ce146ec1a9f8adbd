package io.duetdb.common.types;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * The storage types of column values, and the Java class that carries each in codecs.
 * SQL types map onto these (TINYINT..BIGINT and BOOL onto INT64, CHAR/VARCHAR/TEXT onto STRING, and so on).
 */
public enum ColumnType {
    INT64(Long.class),
    /** Unsigned 64-bit, carried in a {@code long} and compared with {@link Long#compareUnsigned}. */
    UINT64(Long.class),
    FLOAT32(Float.class),
    FLOAT64(Double.class),
    DECIMAL(BigDecimal.class),
    /** UTF-8 text compared byte-wise (the utf8mb4_bin collation). */
    STRING(String.class),
    BYTES(byte[].class),
    DATE(LocalDate.class),
    DATETIME(LocalDateTime.class),
    /** A point in time, carried as its UTC date and time. */
    TIMESTAMP(LocalDateTime.class),
    /** MySQL TIME: a signed duration of at most 838:59:59.999999. */
    TIME(Duration.class);

    private final Class<?> javaClass;

    ColumnType(Class<?> javaClass) {
        this.javaClass = javaClass;
    }

    public Class<?> javaClass() {
        return javaClass;
    }

    /** Throws when {@code value} is not null and not of this type's Java class. */
    public Object check(Object value) {
        if (value != null && !javaClass.isInstance(value)) {
            throw new IllegalArgumentException(
                    "value of class " + value.getClass().getSimpleName() + " does not fit column type " + this);
        }
        return value;
    }
}
