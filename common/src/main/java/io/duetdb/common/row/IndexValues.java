package io.duetdb.common.row;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.types.Collation;
import io.duetdb.common.types.ColumnType;

/**
 * A column's values as index keys (and the keys of a clustered primary key) hold them: the stored value, except that
 * text of a non-binary collation is keyed by its sort key, so that keys equal under the collation collide (a unique
 * index is unique as the collation sees it) and keys order as the collation orders. Such keys cannot give the text
 * back: readers take it from the row.
 */
public final class IndexValues {
    private IndexValues() {
    }

    /** Whether the column's index keys hold sort keys rather than its values. */
    public static boolean keyedBySortKey(ColumnInfo column) {
        return column.type().storageType() == ColumnType.STRING && !column.type().effectiveCollation().binary();
    }

    /** The key codec's type of the column's values in keys. */
    public static ColumnType keyType(ColumnInfo column) {
        return keyedBySortKey(column) ? ColumnType.BYTES : column.type().storageType();
    }

    /** A stored value of the column as keys hold it. */
    public static Object keyValue(ColumnInfo column, Object stored) {
        if (stored == null || !keyedBySortKey(column)) {
            return stored;
        }
        Collation collation = column.type().effectiveCollation();
        return collation.sortKey((String) stored);
    }
}
