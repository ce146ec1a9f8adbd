package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.TableInfo;

/**
 * An append of a DataFrame's rows to a table, checked before anything is written: every DataFrame column must name a
 * column of the table, and every NOT NULL column without a default must be given.
 */
final class DuetWrite implements WriteBuilder, Write {
    private final String name;
    private final TableInfo table;
    private final ConnectorOptions options;
    private final StructType input;

    DuetWrite(String name, TableInfo table, ConnectorOptions options, LogicalWriteInfo info) {
        this.name = requireNonNull(name, "name is null");
        this.table = requireNonNull(table, "table is null");
        this.options = requireNonNull(options, "options is null");
        this.input = info.schema();
        check();
    }

    private void check() {
        if (table.hasWriteExpressions()) {
            // The connector encodes rows itself; it does not evaluate SQL expressions.
            throw new IllegalArgumentException("cannot write to " + name + ": it has generated columns, expression"
                    + " defaults or enforced CHECK constraints, which the connector does not compute yet; write"
                    + " through SQL (INSERT or LOAD DATA) instead");
        }
        Set<String> columns = new TreeSet<>();
        for (ColumnInfo column : table.publicColumns()) {
            columns.add(column.name().toLowerCase(Locale.ROOT));
        }
        List<String> unknown = new ArrayList<>();
        Set<String> given = new TreeSet<>();
        for (StructField field : input.fields()) {
            String lower = field.name().toLowerCase(Locale.ROOT);
            if (!columns.contains(lower)) {
                unknown.add(field.name());
            }
            if (!given.add(lower)) {
                throw new IllegalArgumentException("cannot write to " + name + ": the DataFrame has column " + field.name()
                        + " twice");
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("cannot write to " + name + ": the DataFrame's columns " + unknown
                    + " are not columns of the table (its columns: " + columns + ")");
        }
        List<String> missing = new ArrayList<>();
        for (ColumnInfo column : table.publicColumns()) {
            boolean filled = column.hasDefault() || column.autoIncrement() || column.defaultCurrentTimestamp() || !column.notNull();
            if (!filled && !given.contains(column.name().toLowerCase(Locale.ROOT))) {
                missing.add(column.name());
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("cannot write to " + name + ": the DataFrame lacks the NOT NULL columns "
                    + missing + ", which have no default");
        }
    }

    @Override
    public Write build() {
        return this;
    }

    @Override
    public String description() {
        return "DuetWrite " + name;
    }

    @Override
    public BatchWrite toBatch() {
        return new DuetBatchWrite(name, table, options, input);
    }
}
