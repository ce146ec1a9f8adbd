package io.duetdb.cli.bulk;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * The tables of an export directory, by Dumpling's file names (which bin/duet export writes too):
 * {@code <db>.<table>-schema.sql} holds a table's CREATE TABLE, {@code <db>.<table>.<n>.<csv|parquet|sql>} its rows.
 */
record ExportLayout(List<Table> tables) {
    private static final Pattern SCHEMA = Pattern.compile("([^.]+)\\.(.+)-schema\\.sql");
    private static final Pattern DATA = Pattern.compile("([^.]+)\\.(.+)\\.(\\d+)\\.(csv|parquet|sql)");

    /** One table: its schema file (null when there is none) and the glob of its data files (null when none). */
    record Table(String database, String name, Path schemaFile, String dataPattern, String format) {
        Table {
            requireNonNull(database, "database is null");
            requireNonNull(name, "name is null");
        }
    }

    ExportLayout {
        tables = List.copyOf(tables);
    }

    static ExportLayout of(FileSystem fileSystem, Path directory) throws IOException {
        Map<List<String>, Path> schemas = new TreeMap<>(ExportLayout::compare);
        Map<List<String>, String> formats = new TreeMap<>(ExportLayout::compare);
        for (FileStatus file : fileSystem.listStatus(directory)) {
            if (!file.isFile()) {
                continue;
            }
            String name = file.getPath().getName();
            Matcher schema = SCHEMA.matcher(name);
            Matcher data = DATA.matcher(name);
            if (schema.matches()) {
                schemas.put(List.of(schema.group(1), schema.group(2)), file.getPath());
            } else if (data.matches()) {
                List<String> table = List.of(data.group(1), data.group(2));
                String previous = formats.put(table, data.group(4));
                if (previous != null && !previous.equals(data.group(4))) {
                    throw new DuetException(ErrorCode.IMPORT_PRECHECK_FAILED, "the data files of " + table.get(0) + "."
                            + table.get(1) + " in " + directory + " are of two formats, " + previous + " and "
                            + data.group(4));
                }
            }
        }
        Map<List<String>, Table> tables = new TreeMap<>(ExportLayout::compare);
        schemas.forEach((table, schema) -> tables.put(table, table(directory, table, schema, formats.get(table))));
        formats.forEach((table, format) -> tables.putIfAbsent(table, table(directory, table, null, format)));
        return new ExportLayout(new ArrayList<>(tables.values()));
    }

    private static Table table(Path directory, List<String> table, Path schema, String format) {
        String pattern = format == null ? null
                : new Path(directory, table.get(0) + "." + table.get(1) + ".*." + format).toString();
        return new Table(table.get(0), table.get(1), schema, pattern, format);
    }

    private static int compare(List<String> a, List<String> b) {
        int database = a.get(0).compareTo(b.get(0));
        return database != 0 ? database : a.get(1).compareTo(b.get(1));
    }
}
