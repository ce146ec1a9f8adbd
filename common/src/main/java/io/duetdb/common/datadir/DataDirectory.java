package io.duetdb.common.datadir;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Properties;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.build.BuildInfo;
import io.duetdb.common.error.ErrorCode;

/**
 * A component's data directory: locked against a second process, and stamped with the on-disk format
 * and the kind of component that owns it, so that a build never opens data it cannot read.
 */
public final class DataDirectory implements AutoCloseable {
    /** Bumped whenever a component's files change in a way older builds cannot read. */
    public static final int FORMAT_VERSION = 1;
    static final String STAMP_FILE = "DUETDB_VERSION";
    static final String LOCK_FILE = "LOCK";

    private final Path path;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private DataDirectory(Path path, FileChannel lockChannel, FileLock lock) {
        this.path = path;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** Creates the directory if needed, locks it, and checks or writes its stamp. */
    public static DataDirectory open(Path path, String component) {
        requireNonNull(path, "path is null");
        requireNonNull(component, "component is null");
        Path absolute = path.toAbsolutePath().normalize();
        try {
            Files.createDirectories(absolute);
        } catch (IOException e) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "cannot create data directory " + absolute + ": " + e);
        }
        FileChannel channel = null;
        try {
            channel = FileChannel.open(absolute.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                throw new DuetException(ErrorCode.INVALID_CONFIG,
                        "data directory " + absolute + " is in use by another " + component + " (its LOCK is held)");
            }
            checkOrWriteStamp(absolute, component);
            return new DataDirectory(absolute, channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new DuetException(ErrorCode.INVALID_CONFIG, "cannot open data directory " + absolute + ": " + e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    private static void checkOrWriteStamp(Path directory, String component) throws IOException {
        Path stamp = directory.resolve(STAMP_FILE);
        if (Files.exists(stamp)) {
            Properties properties = new Properties();
            try (Reader reader = Files.newBufferedReader(stamp)) {
                properties.load(reader);
            }
            String format = properties.getProperty("format");
            String owner = properties.getProperty("component");
            int version;
            try {
                version = Integer.parseInt(String.valueOf(format));
            } catch (NumberFormatException e) {
                throw new DuetException(ErrorCode.INCOMPATIBLE_DATA_DIRECTORY,
                        "data directory " + directory + " has an unreadable " + STAMP_FILE + " (format=" + format + ")");
            }
            if (version != FORMAT_VERSION) {
                throw new DuetException(ErrorCode.INCOMPATIBLE_DATA_DIRECTORY, "data directory " + directory
                        + " was written in format " + version + " by DuetDB " + properties.getProperty("written-by")
                        + "; this build reads format " + FORMAT_VERSION);
            }
            if (!component.equals(owner)) {
                throw new DuetException(ErrorCode.INCOMPATIBLE_DATA_DIRECTORY,
                        "data directory " + directory + " belongs to a " + owner + ", not a " + component);
            }
            return;
        }
        try (var entries = Files.list(directory)) {
            boolean foreign = entries.map(p -> p.getFileName().toString())
                    .anyMatch(name -> !name.equals(LOCK_FILE) && !name.equals("logs"));
            if (foreign) {
                throw new DuetException(ErrorCode.INCOMPATIBLE_DATA_DIRECTORY, "data directory " + directory
                        + " holds files but no " + STAMP_FILE + ": not written by DuetDB, or by a build older than 0.1");
            }
        }
        Properties properties = new Properties();
        properties.setProperty("format", String.valueOf(FORMAT_VERSION));
        properties.setProperty("component", component);
        properties.setProperty("written-by", BuildInfo.version());
        Path temporary = directory.resolve(STAMP_FILE + ".tmp");
        try (Writer writer = Files.newBufferedWriter(temporary)) {
            properties.store(writer, "DuetDB data directory");
        }
        Files.move(temporary, stamp, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    public Path path() {
        return path;
    }

    public Path resolve(String child) {
        return path.resolve(child);
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // The channel close below releases it anyway.
        }
        closeQuietly(lockChannel);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // Nothing left to release.
            }
        }
    }
}
