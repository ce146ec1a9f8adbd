package io.duetdb.sql.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.CreateTableText;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.catalog.InfoSchema;

/** SHOW statements, answered from the catalog and the session as MySQL 8.0 lays them out. */
final class ShowStatements {
    private static final Pattern DATABASES = Pattern.compile("(?is)(databases|schemas)(?:\\s+like\\s+'([^']*)')?");
    private static final Pattern TABLES = Pattern.compile(
            "(?is)(full\\s+)?tables(?:\\s+(?:from|in)\\s+`?([^`\\s]+)`?)?(?:\\s+like\\s+'([^']*)')?");
    private static final Pattern COLUMNS = Pattern.compile(
            "(?is)(full\\s+)?(?:columns|fields)\\s+(?:from|in)\\s+([`\\w.]+)(?:\\s+(?:from|in)\\s+`?([^`\\s]+)`?)?"
                    + "(?:\\s+like\\s+'([^']*)')?");
    private static final Pattern INDEX = Pattern.compile(
            "(?is)(?:index|indexes|keys)\\s+(?:from|in)\\s+([`\\w.]+)(?:\\s+(?:from|in)\\s+`?([^`\\s]+)`?)?");
    private static final Pattern CREATE_TABLE = Pattern.compile("(?is)create\\s+table\\s+([`\\w.]+)");
    private static final Pattern CREATE_VIEW = Pattern.compile("(?is)create\\s+view\\s+([`\\w.]+)");
    private static final Pattern CREATE_DATABASE = Pattern.compile("(?is)create\\s+(?:database|schema)\\s+`?([^`\\s]+)`?");
    private static final Pattern VARIABLES = Pattern.compile(
            "(?is)(?:(global|session|local)\\s+)?variables(?:\\s+like\\s+'([^']*)'|\\s+where\\s+.*)?");
    private static final Pattern STATS_META = Pattern.compile("(?is)stats_meta");
    private static final Pattern STATS_HISTOGRAMS = Pattern.compile("(?is)stats_histograms");
    private static final Pattern STATS_BUCKETS = Pattern.compile("(?is)stats_buckets");
    private static final Pattern STATS_TOPN = Pattern.compile("(?is)stats_topn");
    private static final Pattern STATUS = Pattern.compile("(?is)(?:(global|session)\\s+)?status(?:\\s+like\\s+'([^']*)')?");

    private ShowStatements() {
    }

    static StatementResult execute(Session session, String text) {
        InfoSchema schema = session.manager().latestInfoSchema();
        Matcher matcher;
        if ((matcher = DATABASES.matcher(text)).matches()) {
            List<Object[]> rows = new ArrayList<>();
            rows.add(new Object[] {"INFORMATION_SCHEMA"});
            for (DatabaseInfo database : schema.databases()) {
                rows.add(new Object[] {database.name()});
            }
            return result(List.of("Database"), filter(rows, matcher.group(2)));
        }
        if ((matcher = TABLES.matcher(text)).matches()) {
            String databaseName = matcher.group(2) != null ? matcher.group(2) : requireDatabase(session);
            DatabaseInfo database = database(schema, databaseName);
            boolean full = matcher.group(1) != null;
            List<Object[]> rows = new ArrayList<>();
            for (TableInfo table : schema.tables(database)) {
                rows.add(full ? new Object[] {table.name(), table.view() != null ? "VIEW" : "BASE TABLE"}
                        : new Object[] {table.name()});
            }
            String label = "Tables_in_" + database.name();
            return result(full ? List.of(label, "Table_type") : List.of(label), filter(rows, matcher.group(3)));
        }
        if ((matcher = COLUMNS.matcher(text)).matches()) {
            TableInfo table = table(session, schema, matcher.group(2), matcher.group(3));
            boolean full = matcher.group(1) != null;
            List<Object[]> rows = new ArrayList<>();
            for (ColumnInfo column : table.publicColumns()) {
                String key = keyKind(table, column);
                String extra = column.autoIncrement() ? "auto_increment"
                        : column.defaultCurrentTimestamp() ? "DEFAULT_GENERATED" : "";
                Object defaultValue = column.defaultCurrentTimestamp() ? "CURRENT_TIMESTAMP" : column.defaultValue();
                if (full) {
                    rows.add(new Object[] {column.name(), column.type().toSql(),
                            column.type().name().isString() ? "utf8mb4_bin" : null, column.notNull() ? "NO" : "YES",
                            key, defaultValue, extra, "select,insert,update,references", column.comment()});
                } else {
                    rows.add(new Object[] {column.name(), column.type().toSql(), column.notNull() ? "NO" : "YES", key,
                            defaultValue, extra});
                }
            }
            List<String> labels = full
                    ? List.of("Field", "Type", "Collation", "Null", "Key", "Default", "Extra", "Privileges", "Comment")
                    : List.of("Field", "Type", "Null", "Key", "Default", "Extra");
            return result(labels, filter(rows, matcher.group(4)));
        }
        if ((matcher = INDEX.matcher(text)).matches()) {
            TableInfo table = table(session, schema, matcher.group(1), matcher.group(2));
            List<Object[]> rows = new ArrayList<>();
            for (IndexInfo index : table.indexes()) {
                for (int i = 0; i < index.columns().size(); i++) {
                    String columnName = index.columns().get(i);
                    boolean nullable = table.column(columnName).map(c -> !c.notNull()).orElse(true);
                    rows.add(new Object[] {table.name(), index.unique() ? 0L : 1L, index.name(), (long) i + 1,
                            columnName, "A", 0L, null, null, nullable ? "YES" : "", "BTREE", "", "", "YES", null});
                }
            }
            return result(List.of("Table", "Non_unique", "Key_name", "Seq_in_index", "Column_name", "Collation",
                    "Cardinality", "Sub_part", "Packed", "Null", "Index_type", "Comment", "Index_comment", "Visible",
                    "Expression"), rows);
        }
        if ((matcher = CREATE_VIEW.matcher(text)).matches()) {
            TableInfo table = table(session, schema, matcher.group(1), null);
            String databaseName = schema.database(table.databaseId()).map(DatabaseInfo::name).orElse("");
            if (table.view() == null) {
                throw new DuetException(ErrorCode.WRONG_OBJECT, "'" + databaseName + "." + table.name()
                        + "' is not VIEW");
            }
            return createView(session, databaseName, table);
        }
        if ((matcher = CREATE_TABLE.matcher(text)).matches()) {
            TableInfo table = table(session, schema, matcher.group(1), null);
            if (table.view() != null) {
                return createView(session, schema.database(table.databaseId()).map(DatabaseInfo::name).orElse(""), table);
            }
            return result(List.of("Table", "Create Table"), List.<Object[]>of(new Object[] {table.name(),
                    CreateTableText.of(table)}));
        }
        if ((matcher = CREATE_DATABASE.matcher(text)).matches()) {
            DatabaseInfo database = database(schema, matcher.group(1));
            return result(List.of("Database", "Create Database"), List.<Object[]>of(new Object[] {database.name(),
                    "CREATE DATABASE `" + database.name() + "` /*!40100 DEFAULT CHARACTER SET utf8mb4 */"}));
        }
        if ((matcher = VARIABLES.matcher(text)).matches()) {
            boolean global = "global".equalsIgnoreCase(matcher.group(1));
            List<Object[]> rows = new ArrayList<>();
            for (Map.Entry<String, String> variable : SystemVariables.defaults().entrySet()) {
                if (global && !SystemVariables.hasGlobalScope(variable.getKey())) {
                    continue;
                }
                Object value = session.systemVariable(global ? "global" : "", variable.getKey());
                rows.add(new Object[] {variable.getKey(), String.valueOf(value)});
            }
            rows.add(new Object[] {"version", session.serverVersion()});
            rows.sort((a, b) -> ((String) a[0]).compareTo((String) b[0]));
            return result(List.of("Variable_name", "Value"), filter(rows, matcher.group(2)));
        }
        if ((matcher = STATS_META.matcher(text)).matches()) {
            List<Object[]> rows = new ArrayList<>();
            for (io.duetdb.sql.statistics.TableStatistics statistics : session.manager().statistics().all().values()) {
                schema.table(statistics.tableId()).ifPresent(table -> rows.add(new Object[] {
                        schema.database(table.databaseId()).map(DatabaseInfo::name).orElse(""), table.name(), "",
                        statistics.analyzedAt(), session.manager().statistics().modifyCount(statistics.tableId()),
                        statistics.rowCount()}));
            }
            rows.sort((a, b) -> (a[0] + "." + a[1]).compareTo(b[0] + "." + b[1]));
            return result(List.of("Db_name", "Table_name", "Partition_name", "Update_time", "Modify_count", "Row_count"),
                    rows);
        }
        if (STATS_HISTOGRAMS.matcher(text).matches()) {
            List<Object[]> rows = new ArrayList<>();
            forEachAnalyzedTable(session, (database, table, statistics) -> {
                for (io.duetdb.sql.statistics.TableStatistics.ColumnStatistics column : statistics.columns()) {
                    rows.add(new Object[] {database, table.name(), "", column.name(), 0L, statistics.analyzedAt(),
                            column.distinctCount(), column.nullCount(),
                            String.format(Locale.ROOT, "%.4f", column.averageWidth()), "0"});
                }
                for (io.duetdb.sql.statistics.TableStatistics.IndexStatistics index : statistics.indexes()) {
                    List<Long> prefixes = index.prefixDistinctCounts();
                    rows.add(new Object[] {database, table.name(), "", index.name(), 1L, statistics.analyzedAt(),
                            prefixes.isEmpty() ? 0L : prefixes.get(prefixes.size() - 1), 0L, "0", "0"});
                }
            });
            rows.sort((a, b) -> (a[0] + "." + a[1] + "." + a[3]).compareTo(b[0] + "." + b[1] + "." + b[3]));
            return result(List.of("Db_name", "Table_name", "Partition_name", "Column_name", "Is_index", "Update_time",
                    "Distinct_count", "Null_count", "Avg_col_size", "Correlation"), rows);
        }
        if (STATS_BUCKETS.matcher(text).matches() || STATS_TOPN.matcher(text).matches()) {
            boolean buckets = STATS_BUCKETS.matcher(text).matches();
            List<Object[]> rows = new ArrayList<>();
            forEachAnalyzedTable(session, (database, table, statistics) -> {
                for (io.duetdb.sql.statistics.TableStatistics.ColumnStatistics column : statistics.columns()) {
                    if (buckets) {
                        addBuckets(rows, database, table.name(), column.name(), 0L, column.histogram());
                    } else {
                        column.topValues().forEach(top -> rows.add(new Object[] {database, table.name(), "", column.name(),
                                0L, top.value(), top.count()}));
                    }
                }
                for (io.duetdb.sql.statistics.TableStatistics.IndexStatistics index : statistics.indexes()) {
                    if (buckets) {
                        addBuckets(rows, database, table.name(), index.name(), 1L, index.histogram());
                    } else if (!index.prefixTopTuples().isEmpty()) {
                        index.prefixTopTuples().get(index.prefixTopTuples().size() - 1).forEach(top -> rows.add(
                                new Object[] {database, table.name(), "", index.name(), 1L,
                                        io.duetdb.sql.statistics.TableStatistics.tupleText(top.values()), top.count()}));
                    }
                }
            });
            return result(buckets
                    ? List.of("Db_name", "Table_name", "Partition_name", "Column_name", "Is_index", "Bucket_id", "Count",
                            "Repeats", "Lower_Bound", "Upper_Bound")
                    : List.of("Db_name", "Table_name", "Partition_name", "Column_name", "Is_index", "Value", "Count"), rows);
        }
        if ((matcher = STATUS.matcher(text)).matches()) {
            List<Object[]> rows = new ArrayList<>();
            rows.add(new Object[] {"Threads_connected", String.valueOf(session.manager().sessionCount())});
            rows.add(new Object[] {"Uptime", String.valueOf(session.manager().uptimeSeconds())});
            return result(List.of("Variable_name", "Value"), filter(rows, matcher.group(2)));
        }
        String lower = text.toLowerCase(Locale.ROOT).strip();
        if (lower.equals("warnings") || lower.equals("errors")) {
            List<Object[]> rows = new ArrayList<>();
            for (Warning warning : session.warnings()) {
                rows.add(new Object[] {"Warning", (long) warning.code(), warning.message()});
            }
            return new QueryResult(List.of(ResultColumn.computed("Level", SqlType.varchar(7)),
                    ResultColumn.computed("Code", SqlType.INT), ResultColumn.computed("Message", SqlType.varchar(512))),
                    rows);
        }
        if (lower.equals("processlist") || lower.equals("full processlist")) {
            return session.manager().processList(session);
        }
        if (lower.equals("engines")) {
            return result(List.of("Engine", "Support", "Comment", "Transactions", "XA", "Savepoints"),
                    List.<Object[]>of(new Object[] {"InnoDB", "DEFAULT", "DuetDB's distributed row store", "YES", "NO",
                            "NO"}));
        }
        if (lower.startsWith("collation")) {
            return result(List.of("Collation", "Charset", "Id", "Default", "Compiled", "Sortlen"),
                    List.<Object[]>of(new Object[] {"utf8mb4_bin", "utf8mb4", "46", "Yes", "Yes", "1"}));
        }
        if (lower.startsWith("character set") || lower.startsWith("charset")) {
            return result(List.of("Charset", "Description", "Default collation", "Maxlen"),
                    List.<Object[]>of(new Object[] {"utf8mb4", "UTF-8 Unicode", "utf8mb4_bin", "4"}));
        }
        throw new DuetException(ErrorCode.PARSE_ERROR, "You have an error in your SQL syntax; check the manual that"
                + " corresponds to your MySQL server version for the right syntax to use near 'SHOW " + text
                + "' at line 1");
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

    /** SHOW CREATE VIEW (and SHOW CREATE TABLE of a view), for an account that may read the view. */
    private static QueryResult createView(Session session, String databaseName, TableInfo view) {
        session.require(io.duetdb.sql.catalog.Privilege.SELECT, databaseName, view.name());
        return result(List.of("View", "Create View", "character_set_client", "collation_connection"),
                List.<Object[]>of(new Object[] {view.name(), CreateViewText.of(view), view.view().characterSetClient(),
                        view.view().collationConnection()}));
    }

    private static TableInfo table(Session session, InfoSchema schema, String written, String databaseName) {
        String name = written.replace("`", "");
        String database = databaseName;
        int dot = name.indexOf('.');
        if (dot > 0) {
            database = name.substring(0, dot);
            name = name.substring(dot + 1);
        }
        if (database == null) {
            database = requireDatabase(session);
        }
        database(schema, database);
        String finalDatabase = database;
        String finalName = name;
        return schema.table(database, name).orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_TABLE,
                "Table '" + finalDatabase + "." + finalName + "' doesn't exist"));
    }

    private static List<Object[]> filter(List<Object[]> rows, String likePattern) {
        if (likePattern == null) {
            return rows;
        }
        Pattern pattern = Pattern.compile(likePattern.replace("\\_", "\u0001").replace("\\%", "\u0002")
                .replaceAll("[.\\[\\]{}()*+?^$|]", "\\\\$0").replace("%", ".*").replace("_", ".")
                .replace("\u0001", "_").replace("\u0002", "%"), Pattern.CASE_INSENSITIVE);
        List<Object[]> kept = new ArrayList<>();
        for (Object[] row : rows) {
            if (pattern.matcher(String.valueOf(row[0])).matches()) {
                kept.add(row);
            }
        }
        return kept;
    }

    /** What SHOW STATS_* lists for one analyzed table that still exists. */
    private interface AnalyzedTable {
        void accept(String database, TableInfo table, io.duetdb.sql.statistics.TableStatistics statistics);
    }

    private static void forEachAnalyzedTable(Session session, AnalyzedTable each) {
        InfoSchema schema = session.manager().latestInfoSchema();
        for (io.duetdb.sql.statistics.TableStatistics statistics : session.manager().statistics().all().values()) {
            TableInfo table = schema.table(statistics.tableId()).orElse(null);
            if (table != null) {
                each.accept(schema.database(table.databaseId()).map(DatabaseInfo::name).orElse(""), table, statistics);
            }
        }
    }

    private static void addBuckets(List<Object[]> rows, String database, String table, String column, long isIndex,
            List<io.duetdb.sql.statistics.TableStatistics.Bucket> histogram) {
        for (int i = 0; i < histogram.size(); i++) {
            io.duetdb.sql.statistics.TableStatistics.Bucket bucket = histogram.get(i);
            rows.add(new Object[] {database, table, "", column, isIndex, (long) i, bucket.count(), bucket.repeats(),
                    bucket.lower(), bucket.upper()});
        }
    }

    private static QueryResult result(List<String> labels, List<Object[]> rows) {
        List<ResultColumn> columns = new ArrayList<>();
        for (String label : labels) {
            columns.add(ResultColumn.computed(label, SqlType.varchar(256)));
        }
        return new QueryResult(columns, rows);
    }
}
