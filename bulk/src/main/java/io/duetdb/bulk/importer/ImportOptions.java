package io.duetdb.bulk.importer;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * How a physical import runs: {@code threads} files read and encoded at once, {@code sortMemoryBytes} of pairs held
 * in memory before a sorted run is spilled to {@code workDirectory}, {@code writeConcurrency} batches being written
 * to the stores at once.
 */
public record ImportOptions(int threads, long sortMemoryBytes, Path workDirectory, int writeConcurrency) {
    public ImportOptions {
        requireNonNull(workDirectory, "workDirectory is null");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: " + threads);
        }
        if (sortMemoryBytes < 1 << 20) {
            throw new IllegalArgumentException("sortMemoryBytes must be at least 1 MiB: " + sortMemoryBytes);
        }
        if (writeConcurrency < 1) {
            throw new IllegalArgumentException("writeConcurrency must be positive: " + writeConcurrency);
        }
    }

    public static ImportOptions defaults(Path workDirectory) {
        return new ImportOptions(Math.max(1, Runtime.getRuntime().availableProcessors()), 512L << 20, workDirectory, 4);
    }

    public ImportOptions withThreads(int value) {
        return new ImportOptions(value, sortMemoryBytes, workDirectory, writeConcurrency);
    }

    public ImportOptions withSortMemoryBytes(long value) {
        return new ImportOptions(threads, value, workDirectory, writeConcurrency);
    }
}
