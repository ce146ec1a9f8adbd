package io.duetdb.sql.ddl;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.util.BitString;

import io.duetdb.common.catalog.ColumnExpression;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.Collation;
import io.duetdb.common.types.SqlType;
import io.duetdb.common.types.SqlTypeName;
import io.duetdb.sql.exec.Coercion;
import io.duetdb.sql.exec.Values;
import io.duetdb.sql.parser.ddl.SqlColumnDefinition;
import io.duetdb.sql.parser.ddl.SqlIndexDefinition;
import io.duetdb.sql.parser.ddl.SqlMySqlType;

/** Column definitions as written turned into catalog columns, with MySQL's checks and defaults. */
final class ColumnDefinitions {
    private ColumnDefinitions() {
    }

    static SqlType type(SqlMySqlType written, String column) {
        String name = written.typeName();
        int length = written.precision();
        int scale = written.scale();
        boolean unsigned = written.unsigned();
        return switch (name) {
            case "TINYINT" -> new SqlType(SqlTypeName.TINYINT, length > 0 ? length : 4, 0, unsigned);
            case "BOOL", "BOOLEAN" -> new SqlType(SqlTypeName.TINYINT, 1, 0, false);
            case "SMALLINT" -> new SqlType(SqlTypeName.SMALLINT, 6, 0, unsigned);
            case "MEDIUMINT" -> new SqlType(SqlTypeName.MEDIUMINT, 9, 0, unsigned);
            case "INT", "INTEGER" -> new SqlType(SqlTypeName.INT, 11, 0, unsigned);
            case "BIGINT" -> new SqlType(SqlTypeName.BIGINT, 20, 0, unsigned);
            case "DECIMAL", "DEC", "NUMERIC", "FIXED" -> {
                int precision = length < 0 ? 10 : length;
                int decimalScale = scale < 0 ? 0 : scale;
                if (precision > SqlType.MAX_DECIMAL_PRECISION) {
                    throw new DuetException(ErrorCode.TOO_BIG_PRECISION, "Too-big precision " + precision
                            + " specified for '" + column + "'. Maximum is 65.");
                }
                if (decimalScale > SqlType.MAX_DECIMAL_SCALE) {
                    throw new DuetException(ErrorCode.TOO_BIG_SCALE, "Too big scale " + decimalScale
                            + " specified for column '" + column + "'. Maximum is 30.");
                }
                if (decimalScale > precision) {
                    throw new DuetException(ErrorCode.WRONG_ARGUMENTS, "For float(M,D), double(M,D) or decimal(M,D),"
                            + " M must be >= D (column '" + column + "').");
                }
                yield new SqlType(SqlTypeName.DECIMAL, precision, decimalScale, unsigned);
            }
            case "FLOAT" -> length > 24 ? new SqlType(SqlTypeName.DOUBLE, 22, 31, unsigned)
                    : new SqlType(SqlTypeName.FLOAT, 12, 31, unsigned);
            case "REAL", "DOUBLE" -> new SqlType(SqlTypeName.DOUBLE, 22, 31, unsigned);
            case "CHAR", "CHARACTER" -> {
                int size = length < 0 ? 1 : length;
                if (size > SqlType.MAX_CHAR_LENGTH) {
                    throw new DuetException(ErrorCode.WRONG_FIELD_SPEC, "Column length too big for column '" + column
                            + "' (max = 255); use BLOB or TEXT instead");
                }
                yield new SqlType(SqlTypeName.CHAR, size, 0, false);
            }
            case "VARCHAR" -> {
                if (length < 0) {
                    throw new DuetException(ErrorCode.PARSE_ERROR, "You have an error in your SQL syntax; VARCHAR"
                            + " needs a length (column '" + column + "')");
                }
                if (length > 16383) {
                    throw new DuetException(ErrorCode.WRONG_FIELD_SPEC, "Column length too big for column '" + column
                            + "' (max = 16383); use BLOB or TEXT instead");
                }
                yield SqlType.varchar(length);
            }
            case "TINYTEXT" -> new SqlType(SqlTypeName.TEXT, 255, 0, false);
            case "TEXT" -> new SqlType(SqlTypeName.TEXT, 65535, 0, false);
            case "MEDIUMTEXT" -> new SqlType(SqlTypeName.TEXT, 16777215, 0, false);
            case "LONGTEXT" -> new SqlType(SqlTypeName.TEXT, (int) Math.min(Integer.MAX_VALUE, 0xFFFFFFFFL), 0, false);
            case "BINARY" -> new SqlType(SqlTypeName.BINARY, length < 0 ? 1 : length, 0, false);
            case "VARBINARY" -> new SqlType(SqlTypeName.VARBINARY, Math.max(length, 0), 0, false);
            case "TINYBLOB" -> new SqlType(SqlTypeName.BLOB, 255, 0, false);
            case "BLOB" -> new SqlType(SqlTypeName.BLOB, 65535, 0, false);
            case "MEDIUMBLOB" -> new SqlType(SqlTypeName.BLOB, 16777215, 0, false);
            case "LONGBLOB" -> new SqlType(SqlTypeName.BLOB, Integer.MAX_VALUE, 0, false);
            case "DATE" -> new SqlType(SqlTypeName.DATE, 10, 0, false);
            case "DATETIME", "TIMESTAMP", "TIME" -> {
                int fsp = length < 0 ? 0 : length;
                if (fsp > SqlType.MAX_FRACTIONAL_SECONDS) {
                    throw new DuetException(ErrorCode.TOO_BIG_PRECISION, "Too-big precision " + fsp
                            + " specified for '" + column + "'. Maximum is 6.");
                }
                SqlTypeName typeName = SqlTypeName.valueOf(name);
                yield new SqlType(typeName, typeName == SqlTypeName.TIME ? 10 : (fsp == 0 ? 19 : 20 + fsp), fsp,
                        false);
            }
            case "YEAR" -> new SqlType(SqlTypeName.YEAR, 4, 0, true);
            case "JSON" -> SqlType.JSON;
            case "BIT" -> {
                int bits = length < 0 ? 1 : length;
                if (bits < 1 || bits > 64) {
                    throw new DuetException(ErrorCode.TOO_BIG_DISPLAYWIDTH, "Display width out of range for column '"
                            + column + "' (max = 64)");
                }
                yield SqlType.bit(bits);
            }
            case "ENUM", "SET" -> elementsType(SqlTypeName.valueOf(name), written.elements(), column);
            default -> throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "column type " + name.toLowerCase(Locale.ROOT)
                    + " is not supported yet (column '" + column + "')");
        };
    }

    /** ENUM or SET: MySQL drops the values' trailing spaces and refuses a value twice (case aside). */
    private static SqlType elementsType(SqlTypeName name, List<String> written, String column) {
        if (written.isEmpty()) {
            throw new DuetException(ErrorCode.PARSE_ERROR, "You have an error in your SQL syntax; " + name
                    + " needs its values (column '" + column + "')");
        }
        if (name == SqlTypeName.SET && written.size() > 64) {
            throw new DuetException(ErrorCode.TOO_BIG_SET, "Too many strings for column " + column + " and SET");
        }
        List<String> elements = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String element : written) {
            String value = element.stripTrailing();
            if (name == SqlTypeName.SET && value.contains(",")) {
                throw new DuetException(ErrorCode.ILLEGAL_VALUE_FOR_TYPE, "Illegal set '" + value + "' value found"
                        + " during parsing");
            }
            if (!seen.add(value.toLowerCase(Locale.ROOT))) {
                throw new DuetException(ErrorCode.DUPLICATED_VALUE_IN_TYPE, "Column '" + column + "' has duplicated"
                        + " value '" + value + "' in " + name);
            }
            elements.add(value);
        }
        return SqlType.withElements(name, elements);
    }

    static ColumnInfo column(SqlColumnDefinition definition, int id, int position, boolean inPrimaryKey,
            Collation tableCollation) {
        String name = definition.name().getSimple();
        SqlType type = type(definition.type(), name);
        if (type.name().isString()) {
            type = type.withCollation(CharacterSets.collation(definition.type().charset(),
                    definition.type().collation(), tableCollation));
        }
        boolean notNull = Boolean.FALSE.equals(definition.nullable()) || inPrimaryKey
                || definition.key() == SqlIndexDefinition.Kind.PRIMARY;
        if (inPrimaryKey && Boolean.TRUE.equals(definition.nullable())) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "All parts of a PRIMARY KEY must be NOT NULL;"
                    + " if you need NULL in a key, use UNIQUE instead");
        }
        ColumnExpression expression = expression(definition, type, inPrimaryKey);
        ColumnDefault columnDefault = expression != null ? new ColumnDefault(expression.kind()
                == ColumnExpression.Kind.DEFAULT, null, false) : defaultOf(definition.defaultValue(), type, notNull, name);
        if (type.name() == SqlTypeName.ENUM && notNull && !columnDefault.present() && expression == null) {
            // MySQL: a NOT NULL ENUM without a default takes its first value.
            columnDefault = new ColumnDefault(true, type.elements().get(0), false);
        }
        if (definition.autoIncrement() && !type.name().isInteger() && type.name() != SqlTypeName.DOUBLE
                && type.name() != SqlTypeName.FLOAT) {
            throw new DuetException(ErrorCode.WRONG_FIELD_SPEC, "Incorrect column specifier for column '" + name + "'");
        }
        return new ColumnInfo(id, name, position, type, notNull, columnDefault.present(), columnDefault.value(),
                columnDefault.currentTimestamp(), definition.autoIncrement(), definition.onUpdateCurrentTimestamp(),
                definition.comment() == null ? "" : definition.comment(), SchemaState.PUBLIC, false, null, expression);
    }

    /**
     * The column's generated expression, or its DEFAULT (expression) when that is not a plain literal (which is
     * kept as a literal default); null when it has neither.
     */
    private static ColumnExpression expression(SqlColumnDefinition definition, SqlType type, boolean inPrimaryKey) {
        String name = definition.name().getSimple();
        SqlColumnDefinition.Generation generation = definition.generation();
        if (generation == null) {
            return defaultExpression(definition.defaultValue(), definition.defaultText(), type,
                    definition.autoIncrement(), name);
        }
        String refused = definition.defaultValue() != null ? "DEFAULT"
                : definition.autoIncrement() ? "AUTO_INCREMENT"
                : definition.onUpdateCurrentTimestamp() ? "ON UPDATE" : null;
        if (refused != null) {
            throw new DuetException(ErrorCode.WRONG_USAGE, "Incorrect usage of " + refused + " and generated column");
        }
        if (!generation.stored() && (inPrimaryKey || definition.key() == SqlIndexDefinition.Kind.PRIMARY)) {
            throw new DuetException(ErrorCode.GENERATED_COLUMN_UNSUPPORTED, "'Defining a virtual generated column as"
                    + " primary key' is not supported for generated columns.");
        }
        return new ColumnExpression(generation.text(), generation.stored() ? ColumnExpression.Kind.STORED
                : ColumnExpression.Kind.VIRTUAL);
    }

    private static boolean isLiteral(SqlNode node) {
        return node instanceof SqlLiteral || node instanceof SqlCall call && call.getKind() == SqlKind.MINUS_PREFIX
                && call.operand(0) instanceof SqlLiteral;
    }

    /** A column's default as the catalog keeps it: none, a value as text (null for DEFAULT NULL) or the clock. */
    record ColumnDefault(boolean present, String value, boolean currentTimestamp) {
        static final ColumnDefault NONE = new ColumnDefault(false, null, false);

        ColumnInfo applyTo(ColumnInfo column) {
            return column.withDefault(present, value, currentTimestamp);
        }
    }

    /**
     * The expression default of a column for a DEFAULT (expression) written as {@code text}; null when there is none
     * or the expression is a plain literal (kept as a literal default).
     */
    static ColumnExpression defaultExpression(SqlNode value, String text, SqlType type, boolean autoIncrement,
            String name) {
        // BLOB, TEXT and JSON columns take no literal default, but an expression that is a literal.
        boolean literalDefault = isLiteral(value) && type.name() != SqlTypeName.JSON
                && type.name() != SqlTypeName.TEXT && type.name() != SqlTypeName.BLOB;
        if (text == null || literalDefault) {
            return null;
        }
        if (autoIncrement) {
            throw new DuetException(ErrorCode.INVALID_DEFAULT, "Invalid default value for '" + name + "'");
        }
        return new ColumnExpression(text, ColumnExpression.Kind.DEFAULT);
    }

    /** The default {@code written} (null when none is) for a column of {@code type}, checked as MySQL does. */
    static ColumnDefault defaultOf(SqlNode written, SqlType type, boolean notNull, String name) {
        boolean hasDefault = false;
        String defaultValue = null;
        boolean defaultCurrentTimestamp = false;
        if (written != null) {
            hasDefault = true;
            if (written instanceof SqlCall call && call.getKind() == SqlKind.OTHER_FUNCTION
                    || written.getKind() == SqlKind.CURRENT_VALUE || isCurrentTimestamp(written)) {
                if (type.name() != SqlTypeName.DATETIME && type.name() != SqlTypeName.TIMESTAMP) {
                    throw new DuetException(ErrorCode.INVALID_DEFAULT, "Invalid default value for '" + name + "'");
                }
                defaultCurrentTimestamp = true;
            } else {
                Object value = literalValue(written, name);
                if (value != null && type.name() == SqlTypeName.JSON) {
                    throw new DuetException(ErrorCode.BLOB_CANT_HAVE_DEFAULT, "BLOB, TEXT, GEOMETRY or JSON column '"
                            + name + "' can't have a default value");
                }
                if (value == null) {
                    if (notNull) {
                        throw new DuetException(ErrorCode.INVALID_DEFAULT, "Invalid default value for '" + name + "'");
                    }
                } else {
                    ColumnInfo probe = new ColumnInfo(1, name, 0, type, notNull, true, null, false, false, false, "",
                            SchemaState.PUBLIC);
                    try {
                        defaultValue = Values.toText(Coercion.toColumn(value, probe));
                    } catch (DuetException e) {
                        throw new DuetException(ErrorCode.INVALID_DEFAULT, "Invalid default value for '" + name + "'");
                    }
                }
            }
        }
        return new ColumnDefault(hasDefault, defaultValue, defaultCurrentTimestamp);
    }

    private static boolean isCurrentTimestamp(SqlNode node) {
        return node instanceof SqlCall call && call.getOperator().getName().equalsIgnoreCase("CURRENT_TIMESTAMP");
    }

    private static Object literalValue(SqlNode node, String column) {
        if (node instanceof SqlLiteral literal) {
            if (literal.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL) {
                return null;
            }
            if (literal instanceof org.apache.calcite.sql.SqlNumericLiteral numeric) {
                return numeric.getValueAs(java.math.BigDecimal.class);
            }
            if (literal.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.BOOLEAN) {
                return literal.booleanValue() ? 1L : 0L;
            }
            if (literal.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.BINARY) {
                return literal.getValueAs(BitString.class).getAsByteArray();
            }
            return literal.toValue();
        }
        if (node instanceof SqlCall call && call.getKind() == SqlKind.MINUS_PREFIX
                && call.operand(0) instanceof org.apache.calcite.sql.SqlNumericLiteral numeric) {
            return numeric.getValueAs(java.math.BigDecimal.class).negate();
        }
        throw new DuetException(ErrorCode.INVALID_DEFAULT, "Invalid default value for '" + column + "'");
    }
}
