package io.duetdb.common.types;

/** The column types of DuetDB's SQL layer, as MySQL spells them. */
public enum SqlTypeName {
    TINYINT(ColumnType.INT64),
    SMALLINT(ColumnType.INT64),
    MEDIUMINT(ColumnType.INT64),
    INT(ColumnType.INT64),
    BIGINT(ColumnType.INT64),
    DECIMAL(ColumnType.DECIMAL),
    FLOAT(ColumnType.FLOAT32),
    DOUBLE(ColumnType.FLOAT64),
    CHAR(ColumnType.STRING),
    VARCHAR(ColumnType.STRING),
    TEXT(ColumnType.STRING),
    BINARY(ColumnType.BYTES),
    VARBINARY(ColumnType.BYTES),
    BLOB(ColumnType.BYTES),
    DATE(ColumnType.DATE),
    DATETIME(ColumnType.DATETIME),
    TIMESTAMP(ColumnType.TIMESTAMP),
    TIME(ColumnType.TIME),
    YEAR(ColumnType.INT64),
    /** BIT(M): an M-bit unsigned number, which clients receive as its ceil(M / 8) bytes, most significant first. */
    BIT(ColumnType.INT64),
    /** One of the column's values, kept as its text as the column defines it. */
    ENUM(ColumnType.STRING),
    /** Any of the column's values, kept as their text in the column's order, separated by commas. */
    SET(ColumnType.STRING),
    /** A JSON document, kept as its text in MySQL's normal form (validated and normalized on write). */
    JSON(ColumnType.STRING),
    /** The type of a NULL literal; never a column's type. */
    NULL(ColumnType.INT64);

    private final ColumnType storageType;

    SqlTypeName(ColumnType storageType) {
        this.storageType = storageType;
    }

    /** How values of this type are stored (the row and key codecs' types). */
    public ColumnType storageType(boolean unsigned) {
        if (storageType == ColumnType.INT64 && unsigned) {
            return ColumnType.UINT64;
        }
        return storageType;
    }

    public boolean isInteger() {
        return storageType == ColumnType.INT64 && this != NULL;
    }

    public boolean isString() {
        return this == CHAR || this == VARCHAR || this == TEXT || this == ENUM || this == SET;
    }

    public boolean isBinary() {
        return this == BINARY || this == VARBINARY || this == BLOB;
    }
}
