package io.duetdb.sql.ddl;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.CreateTableText;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.ForeignKey;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.types.ColumnType;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.ForeignKeyReference;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.parser.ddl.SqlForeignKey;

/**
 * FOREIGN KEY clauses as the catalog keeps them: checked as MySQL checks their form (columns of the table, as many
 * referenced columns, names unique), named as MySQL names them ({@code table_ibfk_n}); with foreign_key_checks on, the
 * referenced table must exist with an index that starts with the referenced columns, and tables others reference
 * cannot be dropped or truncated. The rows are checked by the executor's ForeignKeyEnforcer.
 */
final class ForeignKeys {

    private ForeignKeys() {
    }

    /** The foreign keys of a new table {@code name} ({database, table}) whose columns are {@code columns}. */
    static List<ForeignKey> declared(String[] name, List<SqlForeignKey> definitions, Set<String> columns) {
        return declared(name, definitions, columns, Set.of());
    }

    /** As above, the constraint names in {@code taken} (lower case) being in use already. */
    private static List<ForeignKey> declared(String[] name, List<SqlForeignKey> definitions, Set<String> columns,
            Set<String> taken) {
        List<ForeignKey> foreignKeys = new ArrayList<>();
        Set<String> names = new HashSet<>(taken);
        int generated = 0;
        for (SqlForeignKey definition : definitions) {
            List<String> keyColumns = DdlExecutor.columnNames(definition.columns());
            for (String column : keyColumns) {
                if (!columns.contains(column.toLowerCase(Locale.ROOT))) {
                    throw new DuetException(ErrorCode.KEY_COLUMN_DOES_NOT_EXIST, "Key column '" + column
                            + "' doesn't exist in table");
                }
            }
            List<String> referencedColumns = DdlExecutor.columnNames(definition.referencedColumns());
            if (referencedColumns.size() != keyColumns.size()) {
                throw new DuetException(ErrorCode.WRONG_FOREIGN_KEY, "Incorrect foreign key definition for '"
                        + (definition.name() == null ? keyColumns.get(0) : definition.name().getSimple())
                        + "': Key reference and table reference don't match");
            }
            String constraintName;
            if (definition.name() != null) {
                constraintName = definition.name().getSimple();
            } else {
                do {
                    constraintName = name[1] + "_ibfk_" + ++generated;
                } while (names.contains(constraintName.toLowerCase(Locale.ROOT)));
            }
            if (!names.add(constraintName.toLowerCase(Locale.ROOT))) {
                throw new DuetException(ErrorCode.DUPLICATE_FOREIGN_KEY, "Duplicate foreign key constraint name '"
                        + constraintName + "'");
            }
            List<String> referenced = definition.referencedTable().names;
            String database = referenced.size() > 1 ? referenced.get(0) : name[0];
            foreignKeys.add(new ForeignKey(constraintName, keyColumns, database, referenced.get(referenced.size() - 1),
                    referencedColumns, definition.onDelete(), definition.onUpdate()));
        }
        return foreignKeys;
    }

    /** A foreign key ALTER TABLE adds to a table that has {@code existing} ones. */
    static ForeignKey added(String[] name, SqlForeignKey definition, Set<String> columns, List<ForeignKey> existing) {
        List<SqlForeignKey> definitions = new ArrayList<>();
        definitions.add(definition);
        Set<String> taken = new HashSet<>();
        existing.forEach(foreignKey -> taken.add(foreignKey.name().toLowerCase(Locale.ROOT)));
        return declared(name, definitions, columns, taken).get(0);
    }

    /**
     * Checks the foreign keys of {@code table} (in database {@code databaseName}) against the schema: SET NULL on a
     * NOT NULL column (1830) always; with {@code checks}, the referenced table (1824), its columns (3734), an index
     * that starts with them (1822) and columns of the same kind on both sides (3780). A key may reference its own
     * table, which {@code schema} need not hold yet.
     */
    static void validate(InfoSchema schema, String databaseName, TableInfo table, List<ForeignKey> foreignKeys,
            boolean checks) {
        for (ForeignKey foreignKey : foreignKeys) {
            for (String column : foreignKey.columns()) {
                ColumnInfo info = column(table, column);
                if (info != null && info.notNull() && (foreignKey.onDelete().equals("SET NULL")
                        || foreignKey.onUpdate().equals("SET NULL"))) {
                    throw new DuetException(ErrorCode.FOREIGN_KEY_COLUMN_NOT_NULL, "Column '" + info.name()
                            + "' cannot be NOT NULL: needed in a foreign key constraint '" + foreignKey.name()
                            + "' SET NULL");
                }
            }
            if (!checks) {
                continue;
            }
            boolean self = foreignKey.referencedDatabase().equalsIgnoreCase(databaseName)
                    && foreignKey.referencedTable().equalsIgnoreCase(table.name());
            TableInfo parent = self ? table : schema.table(foreignKey.referencedDatabase(), foreignKey.referencedTable())
                    .filter(found -> found.view() == null)
                    .orElseThrow(() -> new DuetException(ErrorCode.FOREIGN_KEY_CANNOT_OPEN_PARENT,
                            "Failed to open the referenced table '" + foreignKey.referencedTable() + "'"));
            for (int i = 0; i < foreignKey.columns().size(); i++) {
                String referenced = foreignKey.referencedColumns().get(i);
                ColumnInfo parentColumn = column(parent, referenced);
                if (parentColumn == null) {
                    throw new DuetException(ErrorCode.FOREIGN_KEY_NO_COLUMN_IN_PARENT, "Failed to add the foreign key"
                            + " constraint. Missing column '" + referenced + "' for constraint '" + foreignKey.name()
                            + "' in the referenced table '" + parent.name() + "'");
                }
                ColumnInfo childColumn = column(table, foreignKey.columns().get(i));
                if (!compatible(childColumn, parentColumn)) {
                    throw new DuetException(ErrorCode.FOREIGN_KEY_INCOMPATIBLE_COLUMNS, "Referencing column '"
                            + childColumn.name() + "' and referenced column '" + parentColumn.name()
                            + "' in foreign key constraint '" + foreignKey.name() + "' are incompatible.");
                }
            }
            if (parent.indexes().stream().noneMatch(index -> index.startsWith(foreignKey.referencedColumns()))) {
                throw new DuetException(ErrorCode.FOREIGN_KEY_NO_INDEX_IN_PARENT, "Failed to add the foreign key"
                        + " constraint. Missing index for constraint '" + foreignKey.name()
                        + "' in the referenced table '" + parent.name() + "'");
            }
        }
    }

    /** DROP TABLE of {@code names} ({database, table} each): none may be referenced by a table not dropped too (3730). */
    static void checkDroppable(InfoSchema schema, List<String[]> names) {
        Set<Long> dropped = new HashSet<>();
        for (String[] name : names) {
            schema.table(name[0], name[1]).ifPresent(table -> dropped.add(table.id()));
        }
        for (String[] name : names) {
            TableInfo table = schema.table(name[0], name[1]).orElse(null);
            if (table == null) {
                continue;
            }
            for (ForeignKeyReference reference : schema.referencing(table.id())) {
                if (!dropped.contains(reference.table().id())) {
                    throw new DuetException(ErrorCode.FOREIGN_KEY_CANNOT_DROP_PARENT, "Cannot drop table '"
                            + table.name() + "' referenced by a foreign key constraint '"
                            + reference.foreignKey().name() + "' on table '" + reference.table().name() + "'.");
                }
            }
        }
    }

    /** TRUNCATE TABLE of a table that another table references (1701). */
    static void checkTruncatable(InfoSchema schema, String[] name) {
        TableInfo table = schema.table(name[0], name[1]).orElse(null);
        if (table == null) {
            return;
        }
        for (ForeignKeyReference reference : schema.referencing(table.id())) {
            if (reference.table().id() != table.id()) {
                String database = schema.database(reference.table().databaseId()).map(DatabaseInfo::name).orElse("");
                throw new DuetException(ErrorCode.TRUNCATE_ILLEGAL_FOREIGN_KEY, "Cannot truncate a table referenced"
                        + " in a foreign key constraint (`" + database + "`.`" + reference.table().name() + "`, "
                        + CreateTableText.foreignKeyClause(reference.foreignKey(), "") + ")");
            }
        }
    }

    /**
     * Whether a column may reference another: the same stored kind and, beyond strings and binary strings (whose
     * lengths may differ), the same type, as MySQL requires of integers and decimals.
     */
    private static boolean compatible(ColumnInfo child, ColumnInfo parent) {
        if (child.type().storageType() != parent.type().storageType()) {
            return false;
        }
        ColumnType storage = child.type().storageType();
        if (storage == ColumnType.STRING || storage == ColumnType.BYTES) {
            return true;
        }
        return child.type().name() == parent.type().name() && child.type().unsigned() == parent.type().unsigned()
                && (storage != ColumnType.DECIMAL || child.type().length() == parent.type().length()
                        && child.type().scale() == parent.type().scale());
    }

    private static ColumnInfo column(TableInfo table, String name) {
        for (ColumnInfo column : table.columns()) {
            if (column.name().equalsIgnoreCase(name)) {
                return column;
            }
        }
        return null;
    }
}
