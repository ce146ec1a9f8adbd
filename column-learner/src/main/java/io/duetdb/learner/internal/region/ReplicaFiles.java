package io.duetdb.learner.internal.region;

import static java.util.Objects.requireNonNull;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

import io.duetdb.learner.internal.proto.ReplicaHeader;
import io.duetdb.learner.internal.storage.RegionDelta;

/**
 * Where a learner keeps its replicas: one file per region holding its header (region, state, applied position)
 * and its delta, written whole to a temporary file, synced and renamed, so a crash leaves the previous file. A
 * CRC32C at the end detects a damaged file.
 */
public final class ReplicaFiles {
    private static final String SUFFIX = ".replica";

    private final Path directory;

    public ReplicaFiles(Path directory) {
        this.directory = requireNonNull(directory, "directory is null");
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + directory, e);
        }
    }

    /** A replica as saved: its header and its delta. */
    public record Saved(ReplicaHeader header, RegionDelta delta) {
    }

    public void save(ReplicaHeader header, RegionDelta delta) {
        long regionId = header.getRegion().getId();
        Path target = file(regionId);
        Path temporary = directory.resolve(regionId + SUFFIX + ".tmp");
        try {
            CRC32C checksum = new CRC32C();
            try (DataOutputStream out = new DataOutputStream(new CheckedOutputStream(new BufferedOutputStream(
                    Files.newOutputStream(temporary)), checksum))) {
                byte[] headerBytes = header.toByteArray();
                out.writeInt(headerBytes.length);
                out.write(headerBytes);
                delta.writeTo(out);
                out.flush();
                long value = checksum.getValue();
                out.writeLong(value);
            }
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the replica of region " + regionId + " to " + target, e);
        }
    }

    public Saved load(Path file) throws IOException {
        CRC32C checksum = new CRC32C();
        try (DataInputStream in = new DataInputStream(new CheckedInputStream(new BufferedInputStream(
                Files.newInputStream(file)), checksum))) {
            int headerLength = in.readInt();
            if (headerLength < 0 || headerLength > (16 << 20)) {
                throw new IOException(file + " is not a learner replica file");
            }
            byte[] headerBytes = new byte[headerLength];
            in.readFully(headerBytes);
            ReplicaHeader header = ReplicaHeader.parseFrom(headerBytes);
            RegionDelta delta;
            try {
                delta = RegionDelta.readFrom(in);
            } catch (RuntimeException e) {
                throw new IOException(file + " is damaged: " + e.getMessage(), e);
            }
            long expected = checksum.getValue();
            long stored = new DataInputStream(in).readLong();
            if (stored != expected) {
                throw new IOException(file + " is damaged: its checksum does not match");
            }
            return new Saved(header, delta);
        }
    }

    public List<Path> list() {
        try (Stream<Path> files = Files.list(directory)) {
            return new ArrayList<>(files.filter(path -> path.getFileName().toString().endsWith(SUFFIX)).sorted().toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory, e);
        }
    }

    public void delete(long regionId) {
        try {
            Files.deleteIfExists(file(regionId));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the replica file of region " + regionId, e);
        }
    }

    private Path file(long regionId) {
        return directory.resolve(regionId + SUFFIX);
    }
}
