package io.duetdb.common.catalog;

import java.math.BigInteger;
import java.util.List;

import io.duetdb.common.types.SqlTypeName;

/** The CREATE TABLE text SHOW CREATE TABLE prints for a table (and exports write beside its rows). */
public final class CreateTableText {
    private CreateTableText() {
    }

    public static String of(TableInfo table) {
        return of(table, null);
    }

    /**
     * SHOW CREATE TABLE's text of a table in database {@code databaseName}: a foreign key that references a table of
     * another database names that database, as MySQL writes it (null: never named).
     */
    public static String of(TableInfo table, String databaseName) {
        StringBuilder text = new StringBuilder("CREATE TABLE ").append(quoted(table.name())).append(" (\n");
        boolean first = true;
        for (ColumnInfo column : table.publicColumns()) {
            if (!first) {
                text.append(",\n");
            }
            first = false;
            text.append("  ").append(quoted(column.name())).append(' ').append(column.type().toSql());
            if (column.type().name().isString() && column.type().effectiveCollation() != table.defaultCollation()) {
                text.append(" COLLATE ").append(column.type().effectiveCollation().collationName());
            }
            if (column.generated()) {
                text.append(" GENERATED ALWAYS AS (").append(column.expression().text()).append(") ")
                        .append(column.expression().kind());
            }
            if (column.notNull()) {
                text.append(" NOT NULL");
            }
            if (!column.generated()) {
                appendDefault(text, column);
            }
            if (column.onUpdateCurrentTimestamp()) {
                text.append(" ON UPDATE CURRENT_TIMESTAMP");
            }
            if (!column.comment().isEmpty()) {
                text.append(" COMMENT '").append(column.comment().replace("'", "''")).append('\'');
            }
        }
        for (IndexInfo index : table.indexes()) {
            if (index.state() != SchemaState.PUBLIC) {
                continue;
            }
            text.append(",\n  ");
            if (index.primary()) {
                text.append("PRIMARY KEY ");
            } else {
                text.append(index.unique() ? "UNIQUE KEY " : "KEY ").append(quoted(index.name())).append(' ');
            }
            text.append('(');
            for (int i = 0; i < index.columns().size(); i++) {
                if (i > 0) {
                    text.append(',');
                }
                text.append(quoted(index.columns().get(i)));
            }
            text.append(')');
            if (index.primary()) {
                // TiDB's executable comment: MySQL reads past it, TiDB (and DuetDB) keep the key's clustering.
                text.append(table.hasClusteredPrimaryKey() ? " /*T![clustered_index] CLUSTERED */"
                        : " /*T![clustered_index] NONCLUSTERED */");
            }
        }
        for (ForeignKey foreignKey : table.foreignKeys()) {
            text.append(",\n  ").append(foreignKeyClause(foreignKey, databaseName));
        }
        for (CheckConstraint check : table.checks()) {
            text.append(",\n  CONSTRAINT ").append(quoted(check.name())).append(" CHECK (").append(check.text())
                    .append(')');
            if (!check.enforced()) {
                text.append(" /*!80016 NOT ENFORCED */");
            }
        }
        text.append("\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=").append(table.defaultCollation().collationName());
        if (!table.comment().isEmpty()) {
            text.append(" COMMENT='").append(table.comment().replace("'", "''")).append('\'');
        }
        return text.toString();
    }

    private static String quotedList(List<String> names) {
        StringBuilder text = new StringBuilder();
        for (String name : names) {
            text.append(text.length() > 0 ? "," : "").append(quoted(name));
        }
        return text.toString();
    }

    /** The column's DEFAULT clause (none for AUTO_INCREMENT or a NOT NULL column without one). */
    private static void appendDefault(StringBuilder text, ColumnInfo column) {
        if (column.defaultExpression() != null) {
            text.append(" DEFAULT (").append(column.defaultExpression().text()).append(')');
        } else if (column.autoIncrement()) {
            text.append(" AUTO_INCREMENT");
        } else if (column.defaultCurrentTimestamp()) {
            text.append(" DEFAULT CURRENT_TIMESTAMP");
        } else if (column.hasDefault() && column.defaultValue() != null) {
            if (column.type().name() == SqlTypeName.BIT) {
                // MySQL writes a BIT default as a bit string: b'101'.
                text.append(" DEFAULT b'").append(new BigInteger(column.defaultValue()).toString(2)).append('\'');
            } else {
                text.append(" DEFAULT '").append(column.defaultValue().replace("'", "''")).append('\'');
            }
        } else if (!column.notNull()) {
            text.append(" DEFAULT NULL");
        }
    }

    /** An identifier in backquotes, as MySQL quotes it (a backquote inside is doubled). */
    public static String quoted(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    /**
     * A foreign key as SHOW CREATE TABLE and MySQL's foreign key errors write it: {@code CONSTRAINT `fk` FOREIGN KEY
     * (`c`) REFERENCES `p` (`id`) [ON DELETE ...] [ON UPDATE ...]}, the referenced table qualified by its database
     * when that is not {@code ownDatabase} (null: never qualified).
     */
    public static String foreignKeyClause(ForeignKey foreignKey, String ownDatabase) {
        StringBuilder text = new StringBuilder("CONSTRAINT ").append(quoted(foreignKey.name())).append(" FOREIGN KEY (")
                .append(quotedList(foreignKey.columns())).append(") REFERENCES ");
        if (ownDatabase != null && !ownDatabase.equalsIgnoreCase(foreignKey.referencedDatabase())) {
            text.append(quoted(foreignKey.referencedDatabase())).append('.');
        }
        text.append(quoted(foreignKey.referencedTable())).append(" (")
                .append(quotedList(foreignKey.referencedColumns())).append(')');
        if (!foreignKey.onDelete().equals("NO ACTION") && !foreignKey.onDelete().equals("RESTRICT")) {
            text.append(" ON DELETE ").append(foreignKey.onDelete());
        }
        if (!foreignKey.onUpdate().equals("NO ACTION") && !foreignKey.onUpdate().equals("RESTRICT")) {
            text.append(" ON UPDATE ").append(foreignKey.onUpdate());
        }
        return text.toString();
    }
}
