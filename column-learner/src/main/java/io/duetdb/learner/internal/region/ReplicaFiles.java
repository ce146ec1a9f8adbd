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
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

import io.duetdb.learner.internal.proto.PackRef;
import io.duetdb.learner.internal.proto.ReplicaHeader;
import io.duetdb.learner.internal.stable.ColumnPack;
import io.duetdb.learner.internal.stable.Layers;
import io.duetdb.learner.internal.stable.PackFiles;
import io.duetdb.learner.internal.stable.PackSlice;
import io.duetdb.learner.internal.stable.StableLayer;
import io.duetdb.learner.internal.storage.RegionDelta;

/**
 * Where a learner keeps its replicas: one file per region holding its header (region, state, applied position,
 * the pack files of its stable layer) and its delta, written whole to a temporary file, synced and renamed, so a crash leaves the previous file. A
 * CRC32C at the end detects a damaged file.
 */
public final class ReplicaFiles {
    private static final String SUFFIX = ".replica";

    private final Path directory;
    private final PackFiles packs;

    public ReplicaFiles(Path directory, PackFiles packs) {
        this.directory = requireNonNull(directory, "directory is null");
        this.packs = requireNonNull(packs, "packs is null");
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + directory, e);
        }
    }

    /** A replica as saved: its header and its layers. */
    public record Saved(ReplicaHeader header, Layers layers) {
    }

    public PackFiles packs() {
        return packs;
    }

    /** Saves the header, the slices of the stable layer (their pack files are written already) and the deltas. */
    public void save(ReplicaHeader header, Layers layers) {
        ReplicaHeader.Builder withPacks = header.toBuilder().clearPacks();
        for (PackSlice slice : layers.stable().slices()) {
            PackFiles.Written file = packs.describe(slice.pack().id());
            withPacks.addPacks(PackRef.newBuilder().setId(file.id()).setFrom(slice.from()).setTo(slice.to())
                    .setLength(file.length()).setChecksum(file.checksum()));
        }
        save(withPacks.build(), layers.active(), layers.frozen());
    }

    private void save(ReplicaHeader header, RegionDelta delta, RegionDelta frozen) {
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
                delta.writeTo(out, frozen);
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

    /** Loads a replica; packs already loaded for another replica (split halves share packs) come from {@code loaded}. */
    public Saved load(Path file, Map<Long, ColumnPack> loaded) throws IOException {
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
            List<PackSlice> slices = new ArrayList<>();
            for (PackRef ref : header.getPacksList()) {
                ColumnPack pack = loaded.get(ref.getId());
                if (pack == null) {
                    pack = packs.read(ref.getId(), ref.getLength(), ref.getChecksum());
                    loaded.put(ref.getId(), pack);
                }
                try {
                    slices.add(new PackSlice(pack, ref.getFrom(), ref.getTo()));
                } catch (IllegalArgumentException e) {
                    throw new IOException(file + " names rows pack " + ref.getId() + " does not have", e);
                }
            }
            return new Saved(header, new Layers(new StableLayer(slices), null, delta));
        }
    }

    public List<Path> list() {
        try (Stream<Path> files = Files.list(directory)) {
            return new ArrayList<>(files.filter(path -> path.getFileName().toString().endsWith(SUFFIX)).sorted().toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory, e);
        }
    }

    /** The region a replica file belongs to, from its name. */
    public static long regionIdOf(Path file) {
        String name = file.getFileName().toString();
        return Long.parseLong(name.substring(0, name.length() - SUFFIX.length()));
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
