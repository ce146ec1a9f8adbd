package io.duetdb.sql.prepare;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.apache.calcite.schema.Table;

import io.duetdb.common.catalog.CheckConstraint;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.ForeignKey;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.catalog.ViewInfo;
import io.duetdb.common.types.Collation;
import io.duetdb.common.types.SqlType;
import io.duetdb.common.types.SqlTypeName;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.exec.SessionFunctions;

/**
 * The information_schema views MySQL tools read (SCHEMATA, TABLES, VIEWS, COLUMNS, STATISTICS) and TiDB's
 * TIFLASH_REPLICA, whose progress comes from placement.
 */
public final class InformationSchema {
    static final String NAME = "information_schema";

    private InformationSchema() {
    }

    /** How far a table's column learner replicas are: the share of its regions that have them, 0 to 1. */
    public interface ReplicaProgress {
        ReplicaProgress NONE = table -> 0;

        double of(TableInfo table);
    }

    static Map<String, Table> tables(InfoSchema schema, ReplicaProgress progress) {
        Map<String, Table> tables = new HashMap<>();
        add(tables, schema, "TIFLASH_REPLICA", columns("TABLE_SCHEMA", "TABLE_NAME", "#TABLE_ID", "#REPLICA_COUNT",
                "LOCATION_LABELS", "#AVAILABLE", "%PROGRESS"), current -> replicaRows(current, progress));
        add(tables, schema, "SCHEMATA", columns("CATALOG_NAME", "SCHEMA_NAME", "DEFAULT_CHARACTER_SET_NAME",
                "DEFAULT_COLLATION_NAME", "SQL_PATH"), InformationSchema::schemata);
        add(tables, schema, "TABLES", columns("TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "TABLE_TYPE", "ENGINE",
                "#VERSION", "ROW_FORMAT", "#TABLE_ROWS", "#AUTO_INCREMENT", "TABLE_COLLATION", "TABLE_COMMENT",
                "#TIDB_TABLE_ID", "TIDB_PK_TYPE"),
                InformationSchema::tableRows);
        add(tables, schema, "COLUMNS", columns("TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "COLUMN_NAME",
                "#ORDINAL_POSITION", "COLUMN_DEFAULT", "IS_NULLABLE", "DATA_TYPE", "#CHARACTER_MAXIMUM_LENGTH",
                "#NUMERIC_PRECISION", "#NUMERIC_SCALE", "#DATETIME_PRECISION", "CHARACTER_SET_NAME", "COLLATION_NAME",
                "COLUMN_TYPE", "COLUMN_KEY", "EXTRA", "PRIVILEGES", "COLUMN_COMMENT", "GENERATION_EXPRESSION", "#SRS_ID"),
                InformationSchema::columnRows);
        add(tables, schema, "VIEWS", columns("TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "VIEW_DEFINITION",
                "CHECK_OPTION", "IS_UPDATABLE", "DEFINER", "SECURITY_TYPE", "CHARACTER_SET_CLIENT",
                "COLLATION_CONNECTION"), InformationSchema::viewRows);
        add(tables, schema, "STATISTICS", columns("TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "#NON_UNIQUE",
                "INDEX_SCHEMA", "INDEX_NAME", "#SEQ_IN_INDEX", "COLUMN_NAME", "COLLATION", "#CARDINALITY",
                "#SUB_PART", "PACKED", "NULLABLE", "INDEX_TYPE", "COMMENT", "INDEX_COMMENT"),
                InformationSchema::statisticsRows);
        // Primary and unique keys, foreign keys and CHECK constraints (ORMs read keys from these).
        add(tables, schema, "TABLE_CONSTRAINTS", columns("CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA", "CONSTRAINT_NAME",
                "TABLE_SCHEMA", "TABLE_NAME", "CONSTRAINT_TYPE", "ENFORCED"), InformationSchema::constraintRows);
        add(tables, schema, "KEY_COLUMN_USAGE", columns("CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA", "CONSTRAINT_NAME",
                "TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "COLUMN_NAME", "#ORDINAL_POSITION",
                "#POSITION_IN_UNIQUE_CONSTRAINT", "REFERENCED_TABLE_SCHEMA", "REFERENCED_TABLE_NAME",
                "REFERENCED_COLUMN_NAME"), InformationSchema::keyColumnRows);
        add(tables, schema, "REFERENTIAL_CONSTRAINTS", columns("CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA",
                "CONSTRAINT_NAME", "UNIQUE_CONSTRAINT_CATALOG", "UNIQUE_CONSTRAINT_SCHEMA", "UNIQUE_CONSTRAINT_NAME",
                "MATCH_OPTION", "UPDATE_RULE", "DELETE_RULE", "TABLE_NAME", "REFERENCED_TABLE_NAME"),
                InformationSchema::referentialRows);
        add(tables, schema, "CHECK_CONSTRAINTS", columns("CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA", "CONSTRAINT_NAME",
                "CHECK_CLAUSE"), InformationSchema::checkRows);
        // No table is partitioned: one row per table, as MySQL shows unpartitioned tables.
        add(tables, schema, "PARTITIONS", columns("TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "PARTITION_NAME",
                "SUBPARTITION_NAME", "#PARTITION_ORDINAL_POSITION", "#SUBPARTITION_ORDINAL_POSITION", "PARTITION_METHOD",
                "SUBPARTITION_METHOD", "PARTITION_EXPRESSION", "SUBPARTITION_EXPRESSION", "PARTITION_DESCRIPTION",
                "#TABLE_ROWS", "#AVG_ROW_LENGTH", "#DATA_LENGTH", "#MAX_DATA_LENGTH", "#INDEX_LENGTH", "#DATA_FREE",
                "CREATE_TIME", "UPDATE_TIME", "CHECK_TIME", "#CHECKSUM", "PARTITION_COMMENT", "NODEGROUP",
                "TABLESPACE_NAME"), InformationSchema::partitionRows);
        // No triggers, stored routines or events: empty, for tools that list them (mysqldump, GUI clients).
        add(tables, schema, "TRIGGERS", columns("TRIGGER_CATALOG", "TRIGGER_SCHEMA", "TRIGGER_NAME",
                "EVENT_MANIPULATION", "EVENT_OBJECT_CATALOG", "EVENT_OBJECT_SCHEMA", "EVENT_OBJECT_TABLE",
                "#ACTION_ORDER", "ACTION_CONDITION", "ACTION_STATEMENT", "ACTION_ORIENTATION", "ACTION_TIMING",
                "ACTION_REFERENCE_OLD_TABLE", "ACTION_REFERENCE_NEW_TABLE", "ACTION_REFERENCE_OLD_ROW",
                "ACTION_REFERENCE_NEW_ROW", "CREATED", "SQL_MODE", "DEFINER", "CHARACTER_SET_CLIENT",
                "COLLATION_CONNECTION", "DATABASE_COLLATION"), current -> List.of());
        add(tables, schema, "ROUTINES", columns("SPECIFIC_NAME", "ROUTINE_CATALOG", "ROUTINE_SCHEMA", "ROUTINE_NAME",
                "ROUTINE_TYPE", "DATA_TYPE", "#CHARACTER_MAXIMUM_LENGTH", "#CHARACTER_OCTET_LENGTH",
                "#NUMERIC_PRECISION", "#NUMERIC_SCALE", "#DATETIME_PRECISION", "CHARACTER_SET_NAME", "COLLATION_NAME",
                "DTD_IDENTIFIER", "ROUTINE_BODY", "ROUTINE_DEFINITION", "EXTERNAL_NAME", "EXTERNAL_LANGUAGE",
                "PARAMETER_STYLE", "IS_DETERMINISTIC", "SQL_DATA_ACCESS", "SQL_PATH", "SECURITY_TYPE", "CREATED",
                "LAST_ALTERED", "SQL_MODE", "ROUTINE_COMMENT", "DEFINER", "CHARACTER_SET_CLIENT",
                "COLLATION_CONNECTION", "DATABASE_COLLATION"), current -> List.of());
        add(tables, schema, "EVENTS", columns("EVENT_CATALOG", "EVENT_SCHEMA", "EVENT_NAME", "DEFINER", "TIME_ZONE",
                "EVENT_BODY", "EVENT_DEFINITION", "EVENT_TYPE", "EXECUTE_AT", "INTERVAL_VALUE", "INTERVAL_FIELD",
                "SQL_MODE", "STARTS", "ENDS", "STATUS", "ON_COMPLETION", "CREATED", "LAST_ALTERED", "LAST_EXECUTED",
                "EVENT_COMMENT", "#ORIGINATOR", "CHARACTER_SET_CLIENT", "COLLATION_CONNECTION", "DATABASE_COLLATION"),
                current -> List.of());
        // No tablespaces or log files: empty, for tools that ask (mysqldump dumps tablespaces first).
        add(tables, schema, "FILES", columns("#FILE_ID", "FILE_NAME", "FILE_TYPE", "TABLESPACE_NAME", "TABLE_CATALOG",
                "TABLE_SCHEMA", "TABLE_NAME", "LOGFILE_GROUP_NAME", "#LOGFILE_GROUP_NUMBER", "ENGINE", "FULLTEXT_KEYS",
                "#DELETED_ROWS", "#UPDATE_COUNT", "#FREE_EXTENTS", "#TOTAL_EXTENTS", "#EXTENT_SIZE", "#INITIAL_SIZE",
                "#MAXIMUM_SIZE", "#AUTOEXTEND_SIZE", "ROW_FORMAT", "#TABLE_ROWS", "#DATA_LENGTH", "#DATA_FREE",
                "STATUS", "EXTRA"), current -> List.of());
        add(tables, schema, "CHARACTER_SETS", columns("CHARACTER_SET_NAME", "DEFAULT_COLLATE_NAME", "DESCRIPTION",
                "#MAXLEN"), current -> characterSets());
        add(tables, schema, "COLLATIONS", columns("COLLATION_NAME", "CHARACTER_SET_NAME", "#ID", "IS_DEFAULT",
                "IS_COMPILED", "#SORTLEN", "PAD_ATTRIBUTE"), current -> collations());
        add(tables, schema, "COLLATION_CHARACTER_SET_APPLICABILITY", columns("COLLATION_NAME", "CHARACTER_SET_NAME"),
                current -> collations().stream().map(row -> new Object[] {row[0], row[1]}).toList());
        add(tables, schema, "ENGINES", columns("ENGINE", "SUPPORT", "COMMENT", "TRANSACTIONS", "XA", "SAVEPOINTS"),
                current -> engines());
        add(tables, schema, "USER_PRIVILEGES", columns("GRANTEE", "TABLE_CATALOG", "PRIVILEGE_TYPE", "IS_GRANTABLE"),
                AccountPrivileges::global);
        add(tables, schema, "SCHEMA_PRIVILEGES", columns("GRANTEE", "TABLE_CATALOG", "TABLE_SCHEMA", "PRIVILEGE_TYPE",
                "IS_GRANTABLE"), AccountPrivileges::databases);
        add(tables, schema, "TABLE_PRIVILEGES", columns("GRANTEE", "TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME",
                "PRIVILEGE_TYPE", "IS_GRANTABLE"), AccountPrivileges::tables);
        add(tables, schema, "KEYWORDS", columns("WORD", "#RESERVED"), current -> MySqlKeywords.rows());
        tables.put("PROCESSLIST", InformationSchemaTable.ofSession("PROCESSLIST", processListColumns(),
                SessionFunctions::processList, schema));
        return tables;
    }

    /** The columns of the connections' listing (information_schema.PROCESSLIST, performance_schema.processlist). */
    static List<InformationSchemaTable.Column> processListColumns() {
        return columns("#ID", "USER", "HOST", "DB", "COMMAND", "#TIME", "STATE", "INFO");
    }

    /**
     * The character sets values are stored in: utf8mb4 (text, compared and ordered by code point) and binary. SHOW
     * CHARACTER SET lists the same.
     */
    public static List<Object[]> characterSets() {
        return List.of(new Object[] {"binary", "binary", "Binary pseudo charset", 1L},
                new Object[] {"utf8mb4", "utf8mb4_bin", "UTF-8 Unicode", 4L});
    }

    /** The collations text compares by (Collation): TiDB's default utf8mb4_bin, the case-insensitive ones, binary. */
    public static List<Object[]> collations() {
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {"binary", "binary", 63L, "Yes", "Yes", 1L, "NO PAD"});
        for (Collation collation : Collation.values()) {
            rows.add(new Object[] {collation.collationName(), collation.characterSet(), (long) collation.id(),
                    collation == Collation.DEFAULT ? "Yes" : "", "Yes", 1L,
                    collation.padSpace() ? "PAD SPACE" : "NO PAD"});
        }
        return rows;
    }

    /** The one storage engine, under the name tools expect of a transactional one. */
    public static List<Object[]> engines() {
        return List.<Object[]>of(new Object[] {"InnoDB", "DEFAULT",
                "DuetDB's distributed row store: transactions, row-level locking", "YES", "NO", "YES"});
    }

    private static void add(Map<String, Table> tables, InfoSchema schema, String name,
            List<InformationSchemaTable.Column> columns, Function<InfoSchema, List<Object[]>> rows) {
        tables.put(name, new InformationSchemaTable(name, columns, rows, schema));
    }

    /** Column names; a leading '#' marks a numeric column, '%' a fraction. */
    private static List<InformationSchemaTable.Column> columns(String... names) {
        List<InformationSchemaTable.Column> columns = new ArrayList<>();
        for (String name : names) {
            InformationSchemaTable.Column.Kind kind = name.startsWith("#") ? InformationSchemaTable.Column.Kind.NUMBER
                    : name.startsWith("%") ? InformationSchemaTable.Column.Kind.FRACTION
                    : InformationSchemaTable.Column.Kind.TEXT;
            columns.add(new InformationSchemaTable.Column(kind == InformationSchemaTable.Column.Kind.TEXT ? name
                    : name.substring(1), kind));
        }
        return columns;
    }

    /** Tables that ask for column learner replicas; AVAILABLE once every region has them. */
    private static List<Object[]> replicaRows(InfoSchema schema, ReplicaProgress progress) {
        List<Object[]> rows = new ArrayList<>();
        for (DatabaseInfo database : schema.databases()) {
            for (TableInfo table : schema.tables(database)) {
                if (table.view() == null && table.columnarReplicas() > 0) {
                    double done = progress.of(table);
                    rows.add(new Object[] {database.name(), table.name(), table.id(), (long) table.columnarReplicas(),
                            "", done >= 1 ? 1L : 0L, done});
                }
            }
        }
        return rows;
    }

    private static List<Object[]> partitionRows(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (DatabaseInfo database : schema.databases()) {
            for (TableInfo table : schema.tables(database)) {
                if (table.view() == null) {
                    rows.add(new Object[] {"def", database.name(), table.name(), null, null, null, null, null, null,
                            null, null, null, 0L, 0L, 0L, 0L, 0L, 0L, null, null, null, null, "", "default", null});
                }
            }
        }
        return rows;
    }

    private static List<Object[]> schemata(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {"def", NAME, "utf8mb4", "utf8mb4_bin", null});
        if (schema.database(MySqlSystemSchema.NAME).isEmpty()) {
            rows.add(new Object[] {"def", MySqlSystemSchema.NAME, "utf8mb4", "utf8mb4_bin", null});
        }
        for (DatabaseInfo database : schema.databases()) {
            rows.add(new Object[] {"def", database.name(), "utf8mb4", database.defaultCollation().collationName(), null});
        }
        return rows;
    }

    private static List<Object[]> tableRows(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (DatabaseInfo database : schema.databases()) {
            for (TableInfo table : schema.tables(database)) {
                rows.add(table.view() != null
                        ? new Object[] {"def", database.name(), table.name(), "VIEW", null, null, null, null, null, null,
                                "VIEW", table.id(), "NONCLUSTERED"}
                        : new Object[] {"def", database.name(), table.name(), "BASE TABLE", "InnoDB", 10L, "Dynamic",
                                null, null, table.defaultCollation().collationName(), table.comment(), table.id(),
                                table.hasClusteredPrimaryKey() ? "CLUSTERED" : "NONCLUSTERED"});
            }
        }
        return rows;
    }

    /** Updatable views are not built: IS_UPDATABLE is NO. */
    private static List<Object[]> viewRows(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (DatabaseInfo database : schema.databases()) {
            for (TableInfo table : schema.tables(database)) {
                ViewInfo view = table.view();
                if (view != null) {
                    rows.add(new Object[] {"def", database.name(), table.name(), view.definition(), view.checkOption(),
                            "NO", view.definer(), view.security(), view.characterSetClient(),
                            view.collationConnection()});
                }
            }
        }
        return rows;
    }

    private static List<Object[]> columnRows(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (DatabaseInfo database : schema.databases()) {
            for (TableInfo table : schema.tables(database)) {
                int position = 1;
                for (ColumnInfo column : table.publicColumns()) {
                    SqlType type = column.type();
                    boolean text = type.name().isString();
                    boolean numeric = type.name().isInteger() || type.name() == SqlTypeName.DECIMAL
                            || type.name() == SqlTypeName.FLOAT || type.name() == SqlTypeName.DOUBLE;
                    boolean temporal = type.name() == SqlTypeName.DATETIME || type.name() == SqlTypeName.TIMESTAMP
                            || type.name() == SqlTypeName.TIME;
                    String typeName = type.toSql();
                    int parenthesis = typeName.indexOf('(');
                    String dataType = (parenthesis < 0 ? typeName : typeName.substring(0, parenthesis))
                            .replace(" unsigned", "");
                    rows.add(new Object[] {"def", database.name(), table.name(), column.name(), (long) position++,
                            columnDefault(column),
                            column.notNull() ? "NO" : "YES", dataType,
                            text || type.name().isBinary() ? Integer.toUnsignedLong(type.length()) : null,
                            numeric ? (long) (type.name() == SqlTypeName.DECIMAL || type.name() == SqlTypeName.BIT
                                    ? type.precision() : type.maximum().toString().length()) : null,
                            numeric ? (long) (type.name() == SqlTypeName.DECIMAL ? type.scale() : 0) : null,
                            temporal ? (long) type.fractionalSeconds() : null,
                            text ? "utf8mb4" : null, text ? type.effectiveCollation().collationName() : null, type.toSql(),
                            key(table, column),
                            extra(column), "select,insert,update,references", column.comment(),
                            column.generated() ? column.expression().text() : "", null});
                }
            }
        }
        return rows;
    }

    /** A column's default as MySQL shows it: the value's text, CURRENT_TIMESTAMP, or a default expression. */
    public static String columnDefault(ColumnInfo column) {
        if (column.defaultCurrentTimestamp()) {
            return "CURRENT_TIMESTAMP";
        }
        return column.defaultExpression() != null ? column.defaultExpression().text() : column.defaultValue();
    }

    /** What MySQL says of a column in EXTRA: auto_increment, generated, defaults computed, ON UPDATE. */
    public static String extra(ColumnInfo column) {
        if (column.autoIncrement()) {
            return "auto_increment";
        }
        if (column.generated()) {
            return column.expression().kind() + " GENERATED";
        }
        String extra = column.defaultCurrentTimestamp() || column.defaultExpression() != null ? "DEFAULT_GENERATED" : "";
        if (column.onUpdateCurrentTimestamp()) {
            extra = (extra.isEmpty() ? "" : extra + " ") + "on update CURRENT_TIMESTAMP";
        }
        return extra;
    }

    private static String key(TableInfo table, ColumnInfo column) {
        for (IndexInfo index : table.indexes()) {
            if (index.state() == SchemaState.PUBLIC && index.columns().get(0).equalsIgnoreCase(column.name())) {
                return index.primary() ? "PRI" : index.unique() && index.columns().size() == 1 ? "UNI" : "MUL";
            }
        }
        return "";
    }

    private static List<Object[]> constraintRows(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (DatabaseInfo database : schema.databases()) {
            for (TableInfo table : schema.tables(database)) {
                for (IndexInfo index : keys(table)) {
                    rows.add(new Object[] {"def", database.name(), index.name(), database.name(), table.name(),
                            index.primary() ? "PRIMARY KEY" : "UNIQUE", "YES"});
                }
                for (ForeignKey foreignKey : table.foreignKeys()) {
                    rows.add(new Object[] {"def", database.name(), foreignKey.name(), database.name(), table.name(),
                            "FOREIGN KEY", "YES"});
                }
                for (CheckConstraint check : table.checks()) {
                    rows.add(new Object[] {"def", database.name(), check.name(), database.name(), table.name(),
                            "CHECK", check.enforced() ? "YES" : "NO"});
                }
            }
        }
        return rows;
    }

    private static List<Object[]> referentialRows(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (DatabaseInfo database : schema.databases()) {
            for (TableInfo table : schema.tables(database)) {
                for (ForeignKey foreignKey : table.foreignKeys()) {
                    rows.add(new Object[] {"def", database.name(), foreignKey.name(), "def",
                            foreignKey.referencedDatabase(), "PRIMARY", "NONE", foreignKey.onUpdate(),
                            foreignKey.onDelete(), table.name(), foreignKey.referencedTable()});
                }
            }
        }
        return rows;
    }

    private static List<Object[]> checkRows(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (DatabaseInfo database : schema.databases()) {
            for (TableInfo table : schema.tables(database)) {
                for (CheckConstraint check : table.checks()) {
                    rows.add(new Object[] {"def", database.name(), check.name(), "(" + check.text() + ")"});
                }
            }
        }
        return rows;
    }

    private static List<Object[]> keyColumnRows(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (DatabaseInfo database : schema.databases()) {
            for (TableInfo table : schema.tables(database)) {
                for (IndexInfo index : keys(table)) {
                    for (int i = 0; i < index.columns().size(); i++) {
                        rows.add(new Object[] {"def", database.name(), index.name(), "def", database.name(),
                                table.name(), index.columns().get(i), (long) i + 1, null, null, null, null});
                    }
                }
                for (ForeignKey foreignKey : table.foreignKeys()) {
                    for (int i = 0; i < foreignKey.columns().size(); i++) {
                        rows.add(new Object[] {"def", database.name(), foreignKey.name(), "def", database.name(),
                                table.name(), foreignKey.columns().get(i), (long) i + 1, (long) i + 1,
                                foreignKey.referencedDatabase(), foreignKey.referencedTable(),
                                foreignKey.referencedColumns().get(i)});
                    }
                }
            }
        }
        return rows;
    }

    /** A base table's public primary and unique keys. */
    private static List<IndexInfo> keys(TableInfo table) {
        if (table.view() != null) {
            return List.of();
        }
        return table.indexes().stream().filter(index -> index.state() == SchemaState.PUBLIC && index.unique()).toList();
    }

    private static List<Object[]> statisticsRows(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (DatabaseInfo database : schema.databases()) {
            for (TableInfo table : schema.tables(database)) {
                for (IndexInfo index : table.indexes()) {
                    if (index.state() != SchemaState.PUBLIC) {
                        continue;
                    }
                    for (int i = 0; i < index.columns().size(); i++) {
                        String column = index.columns().get(i);
                        boolean nullable = table.column(column).map(c -> !c.notNull()).orElse(true);
                        rows.add(new Object[] {"def", database.name(), table.name(), index.unique() ? 0L : 1L,
                                database.name(), index.name(), (long) i + 1, column, "A", 0L, null, null,
                                nullable ? "YES" : "", "BTREE", "", ""});
                    }
                }
            }
        }
        return rows;
    }
}
