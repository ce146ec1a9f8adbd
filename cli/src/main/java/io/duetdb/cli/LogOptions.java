package io.duetdb.cli;

import java.nio.file.Path;

import io.duetdb.cli.logging.LogSetup;
import picocli.CommandLine.Option;

/** The logging flag of the server commands (pd, store, sql). */
final class LogOptions {
    @Option(names = "--log-file", paramLabel = "FILE", description = "write the log to FILE (rolled daily and at"
            + " 64 MB) instead of the console, which then shows only warnings and errors")
    Path logFile;

    /** Before anything logs: the console by default (logback.xml), else the file. */
    void apply() {
        LogSetup.bridgeJulToSlf4j();
        if (logFile != null) {
            LogSetup.toFile(LogFiles.prepare(logFile));
        }
    }
}
