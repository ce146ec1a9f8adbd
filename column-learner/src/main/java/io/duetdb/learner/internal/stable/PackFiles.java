package io.duetdb.learner.internal.stable;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.InvalidProtocolBufferException;

import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.VectorValues;
import io.duetdb.proto.coprocessor.FieldType;

/**
 * Column packs on disk: one Arrow IPC file per pack ({@code <id>.arrow}, ZSTD-compressed buffers), holding the
 * key, commit timestamp and deletion mark of each version and one column per table column, with the table id
 * and the columns' types in the schema's metadata. Written once (temporary file, fsync, rename) and never
 * changed; a replica names its packs with their length and CRC32C, so a damaged file is found at load.
 */
public final class PackFiles {
    private static final Logger LOG = LoggerFactory.getLogger(PackFiles.class);
    private static final String SUFFIX = ".arrow";
    private static final String KEY = "_key";
    private static final String COMMIT_TS = "_commit_ts";
    private static final String DELETED = "_deleted";
    private static final String TABLE_ID = "duet.table_id";
    private static final String COLUMN_TYPE = "duet.column_type.";

    private final Path directory;
    private final BufferAllocator allocator;
    private final AtomicLong nextId;
    private final Map<Long, Written> known = new ConcurrentHashMap<>();

    /** A written pack's file: what a replica records to find and check it. */
    public record Written(long id, long length, long checksum) {
    }

    public PackFiles(Path directory, BufferAllocator allocator) {
        this.directory = requireNonNull(directory, "directory is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + directory, e);
        }
        long highest = 0;
        for (long id : existing()) {
            highest = Math.max(highest, id);
        }
        this.nextId = new AtomicLong(highest + 1);
    }

    /** A fresh pack id, above every file in the directory. */
    public long nextId() {
        return nextId.getAndIncrement();
    }

    public Written write(ColumnPack pack) {
        byte[] bytes = encode(pack);
        Path target = file(pack.id());
        Path temporary = directory.resolve(pack.id() + SUFFIX + ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(temporary)) {
                out.write(bytes);
            }
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write pack " + pack.id() + " to " + target, e);
        }
        Written written = new Written(pack.id(), bytes.length, checksum(bytes));
        known.put(pack.id(), written);
        return written;
    }

    /** The length and checksum of a pack file this learner wrote or read. */
    public Written describe(long id) {
        Written written = known.get(id);
        if (written == null) {
            throw new IllegalStateException("pack " + id + " was neither written nor read here");
        }
        return written;
    }

    /** Reads a pack and checks it against what its replica recorded. */
    public ColumnPack read(long id, long length, long checksum) throws IOException {
        Path path = file(id);
        byte[] bytes = Files.readAllBytes(path);
        if (bytes.length != length || checksum(bytes) != checksum) {
            throw new IOException("pack file " + path + " is damaged: " + bytes.length + " bytes (expected " + length
                    + ") and a checksum that does not match");
        }
        ColumnPack pack = decode(id, bytes);
        known.put(id, new Written(id, length, checksum));
        return pack;
    }

    /** Deletes the pack files not in {@code live}; returns how many. */
    public int deleteExcept(Set<Long> live) {
        int deleted = 0;
        for (long id : existing()) {
            if (!live.contains(id)) {
                try {
                    Files.deleteIfExists(file(id));
                    known.remove(id);
                    deleted++;
                } catch (IOException e) {
                    LOG.warn("cannot delete unused pack file {}: {}", file(id), e.getMessage());
                }
            }
        }
        return deleted;
    }

    public List<Long> existing() {
        List<Long> ids = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path path : (Iterable<Path>) files::iterator) {
                String name = path.getFileName().toString();
                if (name.endsWith(SUFFIX)) {
                    try {
                        ids.add(Long.parseLong(name.substring(0, name.length() - SUFFIX.length())));
                    } catch (NumberFormatException e) {
                        // Not ours.
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory, e);
        }
        return ids;
    }

    private byte[] encode(ColumnPack pack) {
        List<Integer> ids = new ArrayList<>(pack.columns().keySet());
        ids.sort(Integer::compare);
        Map<String, String> metadata = new HashMap<>();
        metadata.put(TABLE_ID, Long.toString(pack.tableId()));
        List<FieldVector> vectors = new ArrayList<>();
        try {
            VarBinaryVector keys = new VarBinaryVector(KEY, allocator);
            vectors.add(keys);
            BigIntVector commitTs = new BigIntVector(COMMIT_TS, allocator);
            vectors.add(commitTs);
            BitVector deleted = new BitVector(DELETED, allocator);
            vectors.add(deleted);
            for (int id : ids) {
                FieldType type = pack.column(id).type();
                metadata.put(COLUMN_TYPE + id, Base64.getEncoder().encodeToString(type.toByteArray()));
                vectors.add(ValueTypes.newVector(Integer.toString(id), type, allocator));
            }
            for (FieldVector vector : vectors) {
                vector.allocateNew();
            }
            int rows = pack.rows();
            for (int row = 0; row < rows; row++) {
                keys.setSafe(row, pack.key(row));
                commitTs.setSafe(row, pack.commitTs(row));
                deleted.setSafe(row, pack.deleted(row) ? 1 : 0);
                for (int i = 0; i < ids.size(); i++) {
                    pack.column(ids.get(i)).appendTo(vectors.get(3 + i), row, row);
                }
            }
            for (FieldVector vector : vectors) {
                vector.setValueCount(rows);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (VectorSchemaRoot root = new VectorSchemaRoot(vectors);
                    ArrowFileWriter writer = new ArrowFileWriter(root, null, Channels.newChannel(out), metadata,
                            IpcOption.DEFAULT, CommonsCompressionFactory.INSTANCE, CompressionUtil.CodecType.ZSTD,
                            Optional.of(1))) {
                vectors.clear();
                root.setRowCount(rows);
                writer.start();
                writer.writeBatch();
                writer.end();
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode pack " + pack.id(), e);
        } finally {
            vectors.forEach(FieldVector::close);
        }
    }

    private ColumnPack decode(long id, byte[] bytes) throws IOException {
        try (ArrowFileReader reader = new ArrowFileReader(new ByteArrayReadableSeekableByteChannel(bytes), allocator,
                CommonsCompressionFactory.INSTANCE)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            Map<String, String> metadata = reader.getMetaData();
            if (!reader.loadNextBatch() || metadata == null || !metadata.containsKey(TABLE_ID)) {
                throw new IOException("pack file " + file(id) + " holds no pack");
            }
            int rows = root.getRowCount();
            VarBinaryVector keyVector = (VarBinaryVector) root.getVector(KEY);
            BigIntVector tsVector = (BigIntVector) root.getVector(COMMIT_TS);
            BitVector deletedVector = (BitVector) root.getVector(DELETED);
            byte[][] keys = new byte[rows][];
            long[] commitTs = new long[rows];
            boolean[] deleted = new boolean[rows];
            for (int row = 0; row < rows; row++) {
                keys[row] = keyVector.get(row);
                commitTs[row] = tsVector.get(row);
                deleted[row] = deletedVector.get(row) != 0;
            }
            Map<Integer, PackColumn> columns = new HashMap<>();
            for (FieldVector vector : root.getFieldVectors()) {
                String name = vector.getName();
                if (name.startsWith("_")) {
                    continue;
                }
                int columnId = Integer.parseInt(name);
                FieldType type = FieldType.parseFrom(Base64.getDecoder().decode(metadata.get(COLUMN_TYPE + columnId)));
                PackColumnBuilder builder = PackColumnBuilder.of(type);
                for (int row = 0; row < rows; row++) {
                    builder.add(VectorValues.get(vector, row));
                }
                columns.put(columnId, builder.build());
            }
            return new ColumnPack(id, Long.parseLong(metadata.get(TABLE_ID)), keys, commitTs, deleted, columns);
        } catch (InvalidProtocolBufferException | RuntimeException e) {
            throw new IOException("pack file " + file(id) + " is damaged: " + e.getMessage(), e);
        }
    }

    private static long checksum(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }

    private Path file(long id) {
        return directory.resolve(id + SUFFIX);
    }
}
