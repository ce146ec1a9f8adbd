package io.duetdb.sql.ddl;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.duetdb.common.catalog.ForeignKey;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.parser.ddl.SqlForeignKey;

/**
 * FOREIGN KEY clauses as the catalog keeps them: checked as MySQL checks their form (columns of the table, as many
 * referenced columns, names unique), named as MySQL names them ({@code table_ibfk_n}); kept and shown, not enforced.
 */
final class ForeignKeys {
    static final String NOT_ENFORCED = "Foreign key constraints are kept and shown (SHOW CREATE TABLE,"
            + " information_schema) but not enforced yet";

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

    /** Whether {@code indexColumns} start with {@code columns} (any case). */
    static boolean startsWith(List<String> indexColumns, List<String> columns) {
        if (indexColumns.size() < columns.size()) {
            return false;
        }
        for (int i = 0; i < columns.size(); i++) {
            if (!indexColumns.get(i).equalsIgnoreCase(columns.get(i))) {
                return false;
            }
        }
        return true;
    }
}
