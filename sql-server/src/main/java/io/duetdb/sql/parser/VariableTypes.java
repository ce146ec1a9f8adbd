package io.duetdb.sql.parser;

import static java.util.Objects.requireNonNull;

import org.apache.calcite.sql.type.SqlTypeName;

/**
 * What the parser knows of a session's variables, so that their references are typed as MySQL types them: the type
 * of the number a user variable holds, and which system variables read as integers.
 */
public interface VariableTypes {
    /** No user variable holds a number and every system variable reads as text. */
    VariableTypes NONE = new VariableTypes() {
        @Override
        public NumberType userVariable(String name) {
            return null;
        }

        @Override
        public boolean integerSystemVariable(String name) {
            return false;
        }
    };

    /** The type of the number the user variable (lower case) holds; null when it holds text or nothing. */
    NumberType userVariable(String name);

    /** Whether the system variable (lower case) reads as BIGINT. */
    boolean integerSystemVariable(String name);

    /** BIGINT, DOUBLE or DECIMAL(precision, scale). */
    record NumberType(SqlTypeName typeName, int precision, int scale) {
        public static final NumberType BIGINT = new NumberType(SqlTypeName.BIGINT, -1, -1);
        public static final NumberType DOUBLE = new NumberType(SqlTypeName.DOUBLE, -1, -1);

        public NumberType {
            requireNonNull(typeName, "typeName is null");
        }

        public static NumberType decimal(int precision, int scale) {
            return new NumberType(SqlTypeName.DECIMAL, precision, scale);
        }
    }
}
