package io.duetdb.sql.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.statistics.TableStatistics;

/** TiDB's SHOW STATS_META, STATS_HISTOGRAMS, STATS_BUCKETS and STATS_TOPN, from this server's statistics. */
final class ShowStatistics {
    private ShowStatistics() {
    }

    static ShowRows meta(Session session) {
        InfoSchema schema = session.schema();
        List<Object[]> rows = new ArrayList<>();
        for (TableStatistics statistics : session.manager().statistics().all().values()) {
            schema.table(statistics.tableId()).ifPresent(table -> rows.add(new Object[] {
                    schema.database(table.databaseId()).map(DatabaseInfo::name).orElse(""), table.name(), "",
                    statistics.analyzedAt(), session.manager().statistics().modifyCount(statistics.tableId()),
                    statistics.rowCount()}));
        }
        rows.sort((a, b) -> (a[0] + "." + a[1]).compareTo(b[0] + "." + b[1]));
        return new ShowRows(List.of("Db_name", "Table_name", "Partition_name", "Update_time", "Modify_count",
                "Row_count"), rows);
    }

    static ShowRows histograms(Session session) {
        List<Object[]> rows = new ArrayList<>();
        forEachAnalyzedTable(session, (database, table, statistics) -> {
            for (TableStatistics.ColumnStatistics column : statistics.columns()) {
                rows.add(new Object[] {database, table.name(), "", column.name(), 0L, statistics.analyzedAt(),
                        column.distinctCount(), column.nullCount(),
                        String.format(Locale.ROOT, "%.4f", column.averageWidth()), "0"});
            }
            for (TableStatistics.IndexStatistics index : statistics.indexes()) {
                List<Long> prefixes = index.prefixDistinctCounts();
                rows.add(new Object[] {database, table.name(), "", index.name(), 1L, statistics.analyzedAt(),
                        prefixes.isEmpty() ? 0L : prefixes.get(prefixes.size() - 1), 0L, "0", "0"});
            }
        });
        rows.sort((a, b) -> (a[0] + "." + a[1] + "." + a[3]).compareTo(b[0] + "." + b[1] + "." + b[3]));
        return new ShowRows(List.of("Db_name", "Table_name", "Partition_name", "Column_name", "Is_index", "Update_time",
                "Distinct_count", "Null_count", "Avg_col_size", "Correlation"), rows);
    }

    static ShowRows buckets(Session session) {
        List<Object[]> rows = new ArrayList<>();
        forEachAnalyzedTable(session, (database, table, statistics) -> {
            for (TableStatistics.ColumnStatistics column : statistics.columns()) {
                addBuckets(rows, database, table.name(), column.name(), 0L, column.histogram());
            }
            for (TableStatistics.IndexStatistics index : statistics.indexes()) {
                addBuckets(rows, database, table.name(), index.name(), 1L, index.histogram());
            }
        });
        return new ShowRows(List.of("Db_name", "Table_name", "Partition_name", "Column_name", "Is_index", "Bucket_id",
                "Count", "Repeats", "Lower_Bound", "Upper_Bound"), rows);
    }

    static ShowRows topValues(Session session) {
        List<Object[]> rows = new ArrayList<>();
        forEachAnalyzedTable(session, (database, table, statistics) -> {
            for (TableStatistics.ColumnStatistics column : statistics.columns()) {
                column.topValues().forEach(top -> rows.add(new Object[] {database, table.name(), "", column.name(),
                        0L, top.value(), top.count()}));
            }
            for (TableStatistics.IndexStatistics index : statistics.indexes()) {
                if (!index.prefixTopTuples().isEmpty()) {
                    index.prefixTopTuples().get(index.prefixTopTuples().size() - 1).forEach(top -> rows.add(
                            new Object[] {database, table.name(), "", index.name(), 1L,
                                    TableStatistics.tupleText(top.values()), top.count()}));
                }
            }
        });
        return new ShowRows(List.of("Db_name", "Table_name", "Partition_name", "Column_name", "Is_index", "Value",
                "Count"), rows);
    }

    /** What SHOW STATS_* lists for one analyzed table that still exists. */
    private interface AnalyzedTable {
        void accept(String database, TableInfo table, TableStatistics statistics);
    }

    private static void forEachAnalyzedTable(Session session, AnalyzedTable each) {
        InfoSchema schema = session.schema();
        for (TableStatistics statistics : session.manager().statistics().all().values()) {
            TableInfo table = schema.table(statistics.tableId()).orElse(null);
            if (table != null) {
                each.accept(schema.database(table.databaseId()).map(DatabaseInfo::name).orElse(""), table, statistics);
            }
        }
    }

    private static void addBuckets(List<Object[]> rows, String database, String table, String column, long isIndex,
            List<TableStatistics.Bucket> histogram) {
        for (int i = 0; i < histogram.size(); i++) {
            TableStatistics.Bucket bucket = histogram.get(i);
            rows.add(new Object[] {database, table, "", column, isIndex, (long) i, bucket.count(), bucket.repeats(),
                    bucket.lower(), bucket.upper()});
        }
    }
}
