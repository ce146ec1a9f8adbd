package io.duetdb.bulk.export;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.duetdb.common.checksum.KeyValueChecksum;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.proto.coprocessor.ChecksumResult;

/**
 * An export's metadata.json: the read timestamp, the format, the database's schema file and, per table, its rows,
 * schema file, data files and the stores' checksum, so an import can recreate the tables and verify the round trip.
 */
public record ExportMetadata(long ts, String time, String format, String databaseSchema, List<TableExport> tables) {
    public static final String FILE_NAME = "metadata.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final BigInteger UNSIGNED = BigInteger.ONE.shiftLeft(64);

    public ExportMetadata {
        requireNonNull(time, "time is null");
        requireNonNull(format, "format is null");
        requireNonNull(databaseSchema, "databaseSchema is null");
        tables = List.copyOf(requireNonNull(tables, "tables is null"));
    }

    /** The entry of one table, if the export holds it. */
    public Optional<TableExport> table(String database, String table) {
        return tables.stream().filter(entry -> entry.database().equals(database) && entry.table().equals(table))
                .findFirst();
    }

    public void write(FileSystem fileSystem, Path directory) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("ts", ts).put("time", time).put("format", format).put("database_schema", databaseSchema);
        ArrayNode entries = root.putArray("tables");
        for (TableExport table : tables) {
            ObjectNode entry = entries.addObject();
            entry.put("database", table.database()).put("table", table.table()).put("rows", table.rows())
                    .put("bytes", table.bytes())
                    .put("checksum_crc64_xor", new BigInteger(Long.toUnsignedString(table.checksum().crc64Xor())))
                    .put("total_kvs", table.checksum().totalKvs()).put("total_bytes", table.checksum().totalBytes())
                    .put("schema", table.schemaFile());
            ArrayNode files = entry.putArray("files");
            table.files().forEach(files::add);
        }
        try (OutputStream out = fileSystem.create(new Path(directory, FILE_NAME), true)) {
            JSON.writeValue(out, root);
        }
    }

    /** The metadata.json of an export directory, if it has one. */
    public static Optional<ExportMetadata> read(FileSystem fileSystem, Path directory) {
        Path file = new Path(directory, FILE_NAME);
        try {
            if (!fileSystem.exists(file)) {
                return Optional.empty();
            }
            JsonNode root;
            try (InputStream in = fileSystem.open(file)) {
                root = JSON.readTree(in);
            }
            List<TableExport> tables = new ArrayList<>();
            for (JsonNode entry : root.path("tables")) {
                List<String> files = new ArrayList<>();
                entry.path("files").forEach(name -> files.add(name.asText()));
                long checksum = entry.path("checksum_crc64_xor").bigIntegerValue().mod(UNSIGNED).longValue();
                KeyValueChecksum stored = new KeyValueChecksum();
                stored.add(ChecksumResult.newBuilder().setCrc64Xor(checksum).setTotalKvs(entry.path("total_kvs").asLong())
                        .setTotalBytes(entry.path("total_bytes").asLong()).build());
                tables.add(new TableExport(text(entry, "database", file), text(entry, "table", file),
                        entry.path("rows").asLong(), entry.path("schema").asText(""), files, entry.path("bytes").asLong(),
                        stored));
            }
            return Optional.of(new ExportMetadata(root.path("ts").asLong(), root.path("time").asText(""),
                    root.path("format").asText(""), root.path("database_schema").asText(""), tables));
        } catch (IOException | RuntimeException e) {
            throw new DuetException(ErrorCode.IMPORT_WRONG_FORMAT_CONFIG, "could not read " + file + ": " + e.getMessage());
        }
    }

    private static String text(JsonNode entry, String field, Path file) {
        JsonNode value = entry.get(field);
        if (value == null || !value.isTextual()) {
            throw new DuetException(ErrorCode.IMPORT_WRONG_FORMAT_CONFIG, file + " names a table without \"" + field + "\"");
        }
        return value.asText();
    }
}
