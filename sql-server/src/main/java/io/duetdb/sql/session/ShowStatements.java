package io.duetdb.sql.session;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.CreateTableText;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.sql.parser.show.SqlShow;
import io.duetdb.sql.prepare.CalciteCatalog;
import io.duetdb.sql.prepare.InformationSchema;
import io.duetdb.sql.prepare.InformationSchemaTable;
import io.duetdb.sql.prepare.MySqlSystemSchema;
import io.duetdb.sql.prepare.PerformanceSchema;
import io.duetdb.sql.statistics.TableStatistics;

/**
 * SHOW statements, answered from the catalog and the session as MySQL 8.0 lays them out. LIKE matches the first
 * column; WHERE is a query over the listed rows, with the columns named as shown.
 */
final class ShowStatements {
    /** The schema and table a WHERE clause reads the listed rows from; no database can be named so. */
    private static final String LISTED_SCHEMA = "$show";
    private static final String LISTED_TABLE = "rows";
    private static final String ROW_NUMBER = "$row";

    private ShowStatements() {
    }

    static StatementResult execute(Session session, SqlShow show) {
        switch (show.kind()) {
            case PROCESSLIST:
                return session.manager().processList(session);
            case WARNINGS:
                return warnings(session, false);
            case ERRORS:
                return warnings(session, true);
            default:
                break;
        }
        InfoSchema schema = session.schema();
        ShowRows shown = listing(session, schema, show);
        List<Object[]> rows = shown.rows();
        if (show.like().isPresent()) {
            rows = like(rows, show.like().get());
        }
        if (show.where().isPresent()) {
            rows = where(session, schema, new ShowRows(shown.labels(), rows), show.where().get());
        }
        return result(shown.labels(), rows);
    }

    private static ShowRows listing(Session session, InfoSchema schema, SqlShow show) {
        return switch (show.kind()) {
            case PROCESSLIST, WARNINGS, ERRORS -> throw new IllegalArgumentException(show.kind() + " is not a listing");
            case WARNING_COUNT -> new ShowRows(List.of("@@session.warning_count"),
                    List.<Object[]>of(new Object[] {(long) session.warnings().size()}));
            case ERROR_COUNT -> new ShowRows(List.of("@@session.error_count"), List.<Object[]>of(new Object[] {
                session.warnings().stream().filter(warning -> warning.level() == Warning.Level.ERROR).count()}));
            case DATABASES -> databases(schema);
            case TABLES -> tables(session, schema, show);
            case TABLE_STATUS -> tableStatus(session, schema, show);
            case COLUMNS -> columns(session, schema, show);
            case INDEX -> indexes(session, schema, show);
            case CREATE_TABLE, CREATE_VIEW -> createTable(session, schema, show);
            case CREATE_DATABASE -> createDatabase(schema, show);
            case VARIABLES -> variables(session, show);
            case STATUS -> new ShowRows(List.of("Variable_name", "Value"), session.status());
            case ENGINES -> new ShowRows(List.of("Engine", "Support", "Comment", "Transactions", "XA", "Savepoints"),
                    InformationSchema.engines());
            case COLLATION -> new ShowRows(List.of("Collation", "Charset", "Id", "Default", "Compiled", "Sortlen",
                    "Pad_attribute"), InformationSchema.collations());
            case CHARACTER_SET -> new ShowRows(List.of("Charset", "Description", "Default collation", "Maxlen"),
                    InformationSchema.characterSets().stream().map(row -> new Object[] {row[0], row[2], row[1], row[3]})
                            .toList());
            case TRIGGERS -> empty(session, schema, show, "Trigger", "Event", "Table", "Statement", "Timing", "Created",
                    "sql_mode", "Definer", "character_set_client", "collation_connection", "Database Collation");
            case EVENTS -> empty(session, schema, show, "Db", "Name", "Definer", "Time zone", "Type", "Execute at",
                    "Interval value", "Interval field", "Starts", "Ends", "Status", "Originator", "character_set_client",
                    "collation_connection", "Database Collation");
            case OPEN_TABLES -> empty(session, schema, show, "Database", "Table", "In_use", "Name_locked");
            case PROCEDURE_STATUS, FUNCTION_STATUS -> new ShowRows(List.of("Db", "Name", "Type", "Definer", "Modified",
                    "Created", "Security_type", "Comment", "character_set_client", "collation_connection",
                    "Database Collation"), List.of());
            case PLUGINS -> new ShowRows(List.of("Name", "Status", "Type", "Library", "License"), List.of(
                    new Object[] {"mysql_native_password", "ACTIVE", "AUTHENTICATION", null, "Apache-2.0"},
                    new Object[] {"caching_sha2_password", "ACTIVE", "AUTHENTICATION", null, "Apache-2.0"},
                    new Object[] {"InnoDB", "ACTIVE", "STORAGE ENGINE", null, "Apache-2.0"}));
            case STATS_META -> ShowStatistics.meta(session);
            case STATS_HISTOGRAMS -> ShowStatistics.histograms(session);
            case STATS_BUCKETS -> ShowStatistics.buckets(session);
            case STATS_TOPN -> ShowStatistics.topValues(session);
        };
    }

    private static ShowRows databases(InfoSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {"INFORMATION_SCHEMA"});
        if (schema.database(MySqlSystemSchema.NAME).isEmpty()) {
            rows.add(new Object[] {MySqlSystemSchema.NAME});
        }
        if (schema.database(PerformanceSchema.NAME).isEmpty()) {
            rows.add(new Object[] {PerformanceSchema.NAME});
        }
        for (DatabaseInfo database : schema.databases()) {
            rows.add(new Object[] {database.name()});
        }
        return new ShowRows(List.of("Database"), rows);
    }

    private static ShowRows tables(Session session, InfoSchema schema, SqlShow show) {
        String databaseName = show.database().orElseGet(() -> requireDatabase(session));
        for (String system : List.of(MySqlSystemSchema.NAME, PerformanceSchema.NAME)) {
            if (databaseName.equalsIgnoreCase(system) && schema.database(databaseName).isEmpty()) {
                List<Object[]> rows = new ArrayList<>();
                for (String table : system.equals(MySqlSystemSchema.NAME) ? MySqlSystemSchema.TABLES
                        : PerformanceSchema.TABLES) {
                    rows.add(show.full() ? new Object[] {table, "SYSTEM VIEW"} : new Object[] {table});
                }
                String label = "Tables_in_" + system;
                return new ShowRows(show.full() ? List.of(label, "Table_type") : List.of(label), rows);
            }
        }
        DatabaseInfo database = database(schema, databaseName);
        List<Object[]> rows = new ArrayList<>();
        for (TableInfo table : schema.tables(database)) {
            rows.add(show.full() ? new Object[] {table.name(), table.view() != null ? "VIEW" : "BASE TABLE"}
                    : new Object[] {table.name()});
        }
        String label = "Tables_in_" + database.name();
        return new ShowRows(show.full() ? List.of(label, "Table_type") : List.of(label), rows);
    }

    /** MySQL's SHOW TABLE STATUS; Rows is the row count of the last ANALYZE (0 before one). */
    private static ShowRows tableStatus(Session session, InfoSchema schema, SqlShow show) {
        DatabaseInfo database = database(schema, show.database().orElseGet(() -> requireDatabase(session)));
        List<Object[]> rows = new ArrayList<>();
        for (TableInfo table : schema.tables(database)) {
            if (table.view() != null) {
                Object[] row = new Object[18];
                row[0] = table.name();
                row[17] = "VIEW";
                rows.add(row);
                continue;
            }
            long rowCount = session.manager().statistics().table(table.id()).map(TableStatistics::rowCount).orElse(0L);
            rows.add(new Object[] {table.name(), "InnoDB", 10L, "Dynamic", rowCount, 0L, 0L, 0L, 0L, 0L, null, null,
                    null, null, table.defaultCollation().collationName(), null, "", table.comment()});
        }
        return new ShowRows(List.of("Name", "Engine", "Version", "Row_format", "Rows", "Avg_row_length", "Data_length",
                "Max_data_length", "Index_length", "Data_free", "Auto_increment", "Create_time", "Update_time",
                "Check_time", "Collation", "Checksum", "Create_options", "Comment"), rows);
    }

    private static ShowRows columns(Session session, InfoSchema schema, SqlShow show) {
        TableInfo table = table(session, schema, show);
        List<Object[]> rows = new ArrayList<>();
        for (ColumnInfo column : table.publicColumns()) {
            String key = keyKind(table, column);
            String extra = InformationSchema.extra(column);
            Object defaultValue = InformationSchema.columnDefault(column);
            String nullable = column.notNull() ? "NO" : "YES";
            rows.add(show.full()
                    ? new Object[] {column.name(), column.type().toSql(),
                            column.type().name().isString() ? column.type().effectiveCollation().collationName() : null,
                            nullable, key, defaultValue, extra,
                            "select,insert,update,references", column.comment()}
                    : new Object[] {column.name(), column.type().toSql(), nullable, key, defaultValue, extra});
        }
        return new ShowRows(show.full()
                ? List.of("Field", "Type", "Collation", "Null", "Key", "Default", "Extra", "Privileges", "Comment")
                : List.of("Field", "Type", "Null", "Key", "Default", "Extra"), rows);
    }

    private static ShowRows indexes(Session session, InfoSchema schema, SqlShow show) {
        TableInfo table = table(session, schema, show);
        List<Object[]> rows = new ArrayList<>();
        for (IndexInfo index : table.indexes()) {
            for (int i = 0; i < index.columns().size(); i++) {
                String columnName = index.columns().get(i);
                boolean nullable = table.column(columnName).map(c -> !c.notNull()).orElse(true);
                rows.add(new Object[] {table.name(), index.unique() ? 0L : 1L, index.name(), (long) i + 1,
                        columnName, "A", 0L, null, null, nullable ? "YES" : "", "BTREE", "", "", "YES", null});
            }
        }
        return new ShowRows(List.of("Table", "Non_unique", "Key_name", "Seq_in_index", "Column_name", "Collation",
                "Cardinality", "Sub_part", "Packed", "Null", "Index_type", "Comment", "Index_comment", "Visible",
                "Expression"), rows);
    }

    /** SHOW CREATE TABLE (of a table or a view) and SHOW CREATE VIEW (of a view only). */
    private static ShowRows createTable(Session session, InfoSchema schema, SqlShow show) {
        TableInfo table = table(session, schema, show);
        String databaseName = schema.database(table.databaseId()).map(DatabaseInfo::name).orElse("");
        if (table.view() == null && show.kind() == SqlShow.Kind.CREATE_VIEW) {
            throw new DuetException(ErrorCode.WRONG_OBJECT, "'" + databaseName + "." + table.name() + "' is not VIEW");
        }
        if (table.view() != null) {
            session.require(Privilege.SELECT, databaseName, table.name());
            return new ShowRows(List.of("View", "Create View", "character_set_client", "collation_connection"),
                    List.<Object[]>of(new Object[] {table.name(), CreateViewText.of(table),
                            table.view().characterSetClient(), table.view().collationConnection()}));
        }
        String text = CreateTableText.of(table, databaseName);
        if (InfoSchema.holdsTemporaryTables(databaseName)) {
            text = "CREATE TEMPORARY TABLE" + text.substring("CREATE TABLE".length());
        }
        return new ShowRows(List.of("Table", "Create Table"), List.<Object[]>of(new Object[] {table.name(), text}));
    }

    private static ShowRows createDatabase(InfoSchema schema, SqlShow show) {
        DatabaseInfo database = database(schema, show.object().orElseThrow().getSimple());
        return new ShowRows(List.of("Database", "Create Database"), List.<Object[]>of(new Object[] {database.name(),
                "CREATE DATABASE " + (show.ifNotExists() ? "/*!32312 IF NOT EXISTS*/ " : "") + "`" + database.name()
                        + "` /*!40100 DEFAULT CHARACTER SET utf8mb4"
                        + (database.collation() == null ? "" : " COLLATE " + database.collation().collationName())
                        + " */"}));
    }

    private static ShowRows variables(Session session, SqlShow show) {
        return new ShowRows(List.of("Variable_name", "Value"), session.variables(show.scope() == SqlShow.Scope.GLOBAL));
    }

    /** Listings of objects DuetDB has none of (triggers, events): empty, once the database is known to exist. */
    private static ShowRows empty(Session session, InfoSchema schema, SqlShow show, String... labels) {
        show.database().ifPresentOrElse(name -> database(schema, name), () -> requireDatabase(session));
        return new ShowRows(Arrays.asList(labels), List.of());
    }

    private static QueryResult warnings(Session session, boolean errorsOnly) {
        List<Object[]> rows = new ArrayList<>();
        for (Warning warning : session.warnings()) {
            if (errorsOnly && warning.level() != Warning.Level.ERROR) {
                continue;
            }
            rows.add(new Object[] {warning.level().label(), (long) warning.code(), warning.message()});
        }
        return new QueryResult(List.of(ResultColumn.computed("Level", SqlType.varchar(7)),
                ResultColumn.computed("Code", SqlType.INT), ResultColumn.computed("Message", SqlType.varchar(512))),
                rows);
    }

    private static String keyKind(TableInfo table, ColumnInfo column) {
        for (IndexInfo index : table.indexes()) {
            if (index.columns().get(0).equalsIgnoreCase(column.name())) {
                return index.primary() ? "PRI" : index.unique() && index.columns().size() == 1 ? "UNI" : "MUL";
            }
        }
        return "";
    }

    private static String requireDatabase(Session session) {
        if (session.currentDatabase() == null) {
            throw new DuetException(ErrorCode.NO_DATABASE_SELECTED, "No database selected");
        }
        return session.currentDatabase();
    }

    private static DatabaseInfo database(InfoSchema schema, String name) {
        return schema.database(name).orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_DATABASE,
                "Unknown database '" + name + "'"));
    }

    /** The table the statement names: db.t, or t in its FROM database, else in the current one. */
    private static TableInfo table(Session session, InfoSchema schema, SqlShow show) {
        SqlIdentifier name = show.object().orElseThrow();
        String tableName = name.names.get(name.names.size() - 1);
        String databaseName = name.names.size() > 1 ? name.names.get(name.names.size() - 2)
                : show.database().orElseGet(() -> requireDatabase(session));
        database(schema, databaseName);
        return schema.table(databaseName, tableName).orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_TABLE,
                "Table '" + databaseName + "." + tableName + "' doesn't exist"));
    }

    /** The rows whose first column matches the LIKE pattern, without regard to case (as MySQL's names compare). */
    static List<Object[]> like(List<Object[]> rows, String likePattern) {
        Pattern pattern = Pattern.compile(likePattern.replace("\\_", "\u0001").replace("\\%", "\u0002")
                .replaceAll("[.\\[\\]{}()*+?^$|\\\\]", "\\\\$0").replace("%", ".*").replace("_", ".")
                .replace("\u0001", "_").replace("\u0002", "%"), Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
        List<Object[]> kept = new ArrayList<>();
        for (Object[] row : rows) {
            if (pattern.matcher(String.valueOf(row[0])).matches()) {
                kept.add(row);
            }
        }
        return kept;
    }

    /**
     * The rows the WHERE condition holds for: the listing becomes a table of its own, with a row number, and a
     * query over it planned like any other answers which rows stay.
     */
    private static List<Object[]> where(Session session, InfoSchema schema, ShowRows shown, SqlNode condition) {
        List<String> labels = new ArrayList<>(shown.labels());
        labels.add(ROW_NUMBER);
        List<Object[]> numbered = new ArrayList<>(shown.rows().size());
        for (int i = 0; i < shown.rows().size(); i++) {
            Object[] row = Arrays.copyOf(shown.rows().get(i), labels.size());
            row[labels.size() - 1] = (long) i;
            numbered.add(row);
        }
        CalciteCatalog catalog = CalciteCatalog.withTable(schema, LISTED_SCHEMA, LISTED_TABLE,
                InformationSchemaTable.ofRows(LISTED_TABLE, labels, numbered, schema));
        SqlParserPos position = SqlParserPos.ZERO;
        SqlSelect select = new SqlSelect(position, null, SqlNodeList.of(new SqlIdentifier(ROW_NUMBER, position)),
                new SqlIdentifier(List.of(LISTED_SCHEMA, LISTED_TABLE), position), condition, null, null, null, null,
                null, null, null, null);
        List<Object[]> kept = new ArrayList<>();
        List<Integer> numbers = new ArrayList<>();
        for (Object[] row : session.queryIn(catalog, select).rows()) {
            numbers.add(((Number) row[0]).intValue());
        }
        numbers.sort(null);
        for (int number : numbers) {
            kept.add(shown.rows().get(number));
        }
        return kept;
    }

    private static QueryResult result(List<String> labels, List<Object[]> rows) {
        List<ResultColumn> columns = new ArrayList<>();
        for (String label : labels) {
            columns.add(ResultColumn.computed(label, SqlType.varchar(256)));
        }
        return new QueryResult(columns, rows);
    }
}
