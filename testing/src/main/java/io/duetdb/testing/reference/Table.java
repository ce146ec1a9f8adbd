package io.duetdb.testing.reference;

import java.util.List;
import java.util.stream.Collectors;

/** A table of a generated benchmark schema. The DDL is the same for MySQL, MariaDB, DuetDB and DuckDB. */
public interface Table {
    /** The table's name in SQL, lower case. */
    String sqlName();

    List<Column> columns();

    /** The primary key's columns, joined by commas; empty for a table without one. */
    String primaryKey();

    /** {@code CREATE TABLE} with the columns and the primary key if any; no secondary indexes. */
    default String createTableSql() {
        return "CREATE TABLE " + sqlName() + " ("
                + columns().stream().map(Column::definition).collect(Collectors.joining(", "))
                + (primaryKey().isEmpty() ? "" : ", PRIMARY KEY (" + primaryKey() + ")") + ")";
    }

    /** The column names joined by commas, for INSERT statements. */
    default String columnList() {
        return columns().stream().map(Column::name).collect(Collectors.joining(", "));
    }
}
