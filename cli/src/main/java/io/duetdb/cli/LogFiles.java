package io.duetdb.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/** Where a process writes its log: {@code <data dir>/logs/<name>.log}. */
final class LogFiles {
    private LogFiles() {
    }

    static Path prepare(Path dataDir, String name) {
        Path directory = dataDir.resolve("logs");
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "cannot create log directory " + directory + ": " + e);
        }
        return directory.resolve(name + ".log");
    }
}
