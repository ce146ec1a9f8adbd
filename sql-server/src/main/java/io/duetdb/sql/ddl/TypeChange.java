package io.duetdb.sql.ddl;

import io.duetdb.common.types.SqlType;
import io.duetdb.common.types.SqlTypeName;

/**
 * What a column's type change (ALTER TABLE MODIFY or CHANGE) means for the values its rows hold. Rows keep values
 * in the shortest form of their storage type (integers in 1 to 8 bytes, strings as UTF-8), so a change within one
 * storage type leaves every stored value readable as it is.
 */
enum TypeChange {
    /** Every stored value is a value of the new type as it is: only the definition changes. */
    WIDENING,
    /** Stored values keep their encoding, but some may not fit the new type: every row is checked first. */
    NARROWING,
    /** The encoding differs (another storage type, decimal scale, padding or rounding): rows would be rewritten. */
    REWRITE;

    static TypeChange of(SqlType from, SqlType to) {
        if (from.equals(to)) {
            return WIDENING;
        }
        if (from.storageType() != to.storageType() || (from.name() == SqlTypeName.YEAR) != (to.name() == SqlTypeName.YEAR)) {
            return REWRITE;
        }
        SqlTypeName name = to.name();
        if (name.isInteger()) {
            return from.minimum().compareTo(to.minimum()) >= 0 && from.maximum().compareTo(to.maximum()) <= 0
                    ? WIDENING : NARROWING;
        }
        if (name == SqlTypeName.DECIMAL) {
            if (from.scale() != to.scale()) {
                return REWRITE;
            }
            return to.precision() >= from.precision() && (!to.unsigned() || from.unsigned()) ? WIDENING : NARROWING;
        }
        if (name == SqlTypeName.ENUM || name == SqlTypeName.SET) {
            // Each stored value must be one of the new values: it is, when the new ones include the old.
            return from.name() == name && to.elements().containsAll(from.elements()) ? WIDENING : NARROWING;
        }
        if (name.isString()) {
            if (to.name() == SqlTypeName.CHAR && from.name() != SqlTypeName.CHAR) {
                return NARROWING;
            }
            return length(to) >= length(from) ? WIDENING : NARROWING;
        }
        if (name.isBinary()) {
            // BINARY(n) values are padded to n bytes: another padding is another value.
            if (to.name() == SqlTypeName.BINARY) {
                return REWRITE;
            }
            return length(to) >= length(from) ? WIDENING : NARROWING;
        }
        return switch (name) {
            case FLOAT, DOUBLE, DATE -> WIDENING;
            // Fewer fractional digits round the values.
            case DATETIME, TIMESTAMP, TIME -> to.fractionalSeconds() >= from.fractionalSeconds() ? WIDENING : REWRITE;
            default -> REWRITE;
        };
    }

    /** A string or binary type's length in characters or bytes; LONGTEXT's does not fit an int. */
    private static long length(SqlType type) {
        return Integer.toUnsignedLong(type.length());
    }
}
