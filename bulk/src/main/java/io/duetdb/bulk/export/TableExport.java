package io.duetdb.bulk.export;

import static java.util.Objects.requireNonNull;

import java.util.List;

import io.duetdb.common.checksum.KeyValueChecksum;

/**
 * One exported table: its rows, the file holding its CREATE TABLE statement, the data files written (URIs, in order),
 * their bytes and the stores' checksum at the ts.
 */
public record TableExport(String database, String table, long rows, String schemaFile, List<String> files, long bytes,
        KeyValueChecksum checksum) {
    public TableExport {
        requireNonNull(database, "database is null");
        requireNonNull(table, "table is null");
        requireNonNull(schemaFile, "schemaFile is null");
        files = List.copyOf(requireNonNull(files, "files is null"));
        requireNonNull(checksum, "checksum is null");
    }
}
