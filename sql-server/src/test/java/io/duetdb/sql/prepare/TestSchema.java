package io.duetdb.sql.prepare;

import java.util.ArrayList;
import java.util.List;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.catalog.InfoSchema;

/** A catalog of a few tables in database {@code db} for planner tests, built column by column. */
final class TestSchema {
    static final String DATABASE = "db";
    private static final DatabaseInfo DATABASE_INFO = new DatabaseInfo(1, DATABASE);

    private final List<TableInfo> tables = new ArrayList<>();

    /** A table builder: columns in order, then keys. */
    final class Table {
        private final String name;
        private final List<ColumnInfo> columns = new ArrayList<>();
        private final List<IndexInfo> indexes = new ArrayList<>();

        private Table(String name) {
            this.name = name;
        }

        Table column(String column, SqlType type, boolean notNull) {
            columns.add(new ColumnInfo(columns.size() + 1, column, columns.size(), type, notNull, !notNull, null, false,
                    false, false, "", SchemaState.PUBLIC));
            return this;
        }

        Table primaryKey(String... keyColumns) {
            indexes.add(new IndexInfo(indexes.size() + 1, IndexInfo.PRIMARY_NAME, List.of(keyColumns), true, true,
                    SchemaState.PUBLIC));
            return this;
        }

        Table unique(String indexName, String... keyColumns) {
            indexes.add(new IndexInfo(indexes.size() + 1, indexName, List.of(keyColumns), true, false,
                    SchemaState.PUBLIC));
            return this;
        }

        TestSchema done() {
            tables.add(new TableInfo(100 + tables.size(), DATABASE_INFO.id(), name, columns, indexes, null,
                    columns.size() + 1, indexes.size() + 1, "", 0));
            return TestSchema.this;
        }
    }

    Table table(String name) {
        return new Table(name);
    }

    InfoSchema infoSchema() {
        return new InfoSchema(1, List.of(DATABASE_INFO), tables);
    }

    CalciteCatalog catalog() {
        return new CalciteCatalog(infoSchema());
    }
}
