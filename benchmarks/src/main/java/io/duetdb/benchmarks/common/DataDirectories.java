package io.duetdb.benchmarks.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The data directories benchmarks create for their in-process clusters. */
public final class DataDirectories {
    private DataDirectories() {
    }

    /** Deletes a directory and everything under it (an in-process cluster's data, once it has stopped). */
    public static void delete(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
