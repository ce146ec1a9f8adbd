package io.duetdb.bulk.source;

import static java.util.Objects.requireNonNull;

/** One file an import reads: its full URI (file:, hdfs: or any Hadoop file system) and its length in bytes. */
public record SourceFile(String uri, long length) {
    public SourceFile {
        requireNonNull(uri, "uri is null");
        if (length < 0) {
            throw new IllegalArgumentException("length is negative: " + length);
        }
    }
}
