package io.duetdb.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/** Where a process writes its log file: the playground's {@code <data dir>/logs/duet.log}, or {@code --log-file}. */
final class LogFiles {
    private LogFiles() {
    }

    static Path inDataDirectory(Path dataDir) {
        return prepare(dataDir.resolve("logs").resolve("duet.log"));
    }

    /** Creates the file's directory; a directory that cannot be created is a bad configuration. */
    static Path prepare(Path file) {
        Path directory = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "cannot create log directory " + directory + ": " + e);
        }
        if (Files.isDirectory(file)) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "log file " + file + " is a directory");
        }
        return file;
    }
}
