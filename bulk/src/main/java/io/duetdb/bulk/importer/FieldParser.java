package io.duetdb.bulk.importer;

import io.duetdb.common.catalog.ColumnInfo;

/**
 * Turns a field's text into the stored form of a column's value (see {@code RowCodec}), with MySQL's strict rules:
 * the SQL server passes its own INSERT conversion, so an import converts exactly as INSERT does. Throws a
 * {@code DuetException} (out of range, incorrect value, data too long) for text the column cannot hold.
 */
@FunctionalInterface
public interface FieldParser {
    Object parse(ColumnInfo column, String text);
}
