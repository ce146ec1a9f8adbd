package io.duetdb.common.types;

import static java.util.Objects.requireNonNull;

import java.math.BigInteger;
import java.util.List;

/**
 * A column type with its parameters: length for strings and binaries, precision and scale for DECIMAL,
 * fractional-second precision (in {@code scale}) for DATETIME, TIMESTAMP and TIME, the values of ENUM and SET
 * (whose length is their longest value's), and the collation of text types (null for the binary default).
 */
public record SqlType(SqlTypeName name, int length, int scale, boolean unsigned, List<String> elements,
        Collation collation) {
    public static final int MAX_DECIMAL_PRECISION = 65;
    public static final int MAX_DECIMAL_SCALE = 30;
    public static final int MAX_FRACTIONAL_SECONDS = 6;
    public static final int MAX_VARCHAR_LENGTH = 65535;
    public static final int MAX_CHAR_LENGTH = 255;

    public static final SqlType BIGINT = new SqlType(SqlTypeName.BIGINT, 20, 0, false);
    public static final SqlType BIGINT_UNSIGNED = new SqlType(SqlTypeName.BIGINT, 20, 0, true);
    public static final SqlType INT = new SqlType(SqlTypeName.INT, 11, 0, false);
    public static final SqlType DOUBLE = new SqlType(SqlTypeName.DOUBLE, 22, 31, false);
    public static final SqlType TEXT = new SqlType(SqlTypeName.TEXT, 65535, 0, false);
    public static final SqlType LONGTEXT = new SqlType(SqlTypeName.TEXT, (int) 0xFFFFFFFFL, 0, false);
    public static final SqlType JSON = new SqlType(SqlTypeName.JSON, (int) 0xFFFFFFFFL, 0, false);
    public static final SqlType BOOLEAN = new SqlType(SqlTypeName.TINYINT, 1, 0, false);
    public static final SqlType NULL = new SqlType(SqlTypeName.NULL, 0, 0, false);

    public SqlType {
        requireNonNull(name, "name is null");
        elements = elements == null ? List.of() : List.copyOf(elements);
        if (collation == Collation.DEFAULT || !name.isString()) {
            collation = null;
        }
    }

    public SqlType(SqlTypeName name, int length, int scale, boolean unsigned, List<String> elements) {
        this(name, length, scale, unsigned, elements, null);
    }

    public SqlType(SqlTypeName name, int length, int scale, boolean unsigned) {
        this(name, length, scale, unsigned, List.of());
    }

    /** This type compared by {@code newCollation} (text types only; others have none). */
    public SqlType withCollation(Collation newCollation) {
        return new SqlType(name, length, scale, unsigned, elements, newCollation);
    }

    /** The collation values of this type compare by: the binary one unless a text type names another. */
    public Collation effectiveCollation() {
        return collation == null ? Collation.DEFAULT : collation;
    }

    /** ENUM or SET of these values. */
    public static SqlType withElements(SqlTypeName name, List<String> elements) {
        int longest = 0;
        for (String element : elements) {
            longest = Math.max(longest, element.length());
        }
        if (name == SqlTypeName.SET) {
            longest = 0;
            for (String element : elements) {
                longest += element.length() + 1;
            }
            longest = Math.max(0, longest - 1);
        }
        return new SqlType(name, longest, 0, false, elements);
    }

    public static SqlType varchar(int length) {
        return new SqlType(SqlTypeName.VARCHAR, length, 0, false);
    }

    /** BIT(M), M from 1 to 64: unsigned, as its values are. */
    public static SqlType bit(int bits) {
        return new SqlType(SqlTypeName.BIT, bits, 0, true);
    }

    public static SqlType decimal(int precision, int scale) {
        return new SqlType(SqlTypeName.DECIMAL, precision, scale, false);
    }

    public static SqlType datetime(int fractionalSeconds) {
        return new SqlType(SqlTypeName.DATETIME, fractionalSeconds == 0 ? 19 : 20 + fractionalSeconds,
                fractionalSeconds, false);
    }

    public ColumnType storageType() {
        return name.storageType(unsigned);
    }

    public int precision() {
        return length;
    }

    /** Fractional-second digits of a temporal type. */
    public int fractionalSeconds() {
        return scale;
    }

    /** The smallest value an integer type holds. */
    public BigInteger minimum() {
        if (unsigned) {
            return BigInteger.ZERO;
        }
        return switch (name) {
            case TINYINT -> BigInteger.valueOf(Byte.MIN_VALUE);
            case SMALLINT -> BigInteger.valueOf(Short.MIN_VALUE);
            case MEDIUMINT -> BigInteger.valueOf(-(1 << 23));
            case INT -> BigInteger.valueOf(Integer.MIN_VALUE);
            case YEAR -> BigInteger.ZERO;
            default -> BigInteger.valueOf(Long.MIN_VALUE);
        };
    }

    /** The largest value an integer type holds. */
    public BigInteger maximum() {
        return switch (name) {
            case TINYINT -> BigInteger.valueOf(unsigned ? 255 : 127);
            case SMALLINT -> BigInteger.valueOf(unsigned ? 65535 : 32767);
            case MEDIUMINT -> BigInteger.valueOf(unsigned ? (1 << 24) - 1 : (1 << 23) - 1);
            case INT -> BigInteger.valueOf(unsigned ? 0xFFFFFFFFL : Integer.MAX_VALUE);
            case YEAR -> BigInteger.valueOf(2155);
            case BIT -> BigInteger.ONE.shiftLeft(Math.min(64, Math.max(1, length))).subtract(BigInteger.ONE);
            default -> unsigned ? BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)
                    : BigInteger.valueOf(Long.MAX_VALUE);
        };
    }

    /** As SHOW CREATE TABLE and information_schema.COLUMNS.COLUMN_TYPE write it. */
    public String toSql() {
        String unsignedSuffix = unsigned ? " unsigned" : "";
        return switch (name) {
            case TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT -> name.name().toLowerCase() + unsignedSuffix;
            case DECIMAL -> "decimal(" + length + "," + scale + ")" + unsignedSuffix;
            case FLOAT -> "float" + unsignedSuffix;
            case DOUBLE -> "double" + unsignedSuffix;
            case CHAR, VARCHAR, BINARY, VARBINARY -> name.name().toLowerCase() + "(" + length + ")";
            case TEXT -> length > 65535 ? "longtext" : "text";
            case BLOB -> length > 65535 ? "longblob" : "blob";
            case DATETIME, TIMESTAMP, TIME -> name.name().toLowerCase() + (scale > 0 ? "(" + scale + ")" : "");
            case DATE -> "date";
            case YEAR -> "year";
            case BIT -> "bit(" + length + ")";
            case JSON -> "json";
            case ENUM, SET -> name.name().toLowerCase() + "(" + quotedElements() + ")";
            case NULL -> "null";
        };
    }

    private String quotedElements() {
        StringBuilder text = new StringBuilder();
        for (String element : elements) {
            text.append(text.length() > 0 ? "," : "").append('\'').append(element.replace("'", "''")).append('\'');
        }
        return text.toString();
    }
}
