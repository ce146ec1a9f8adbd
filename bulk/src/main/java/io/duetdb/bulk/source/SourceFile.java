package io.duetdb.bulk.source;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * One file an import reads, or a part of it: its full URI (file:, hdfs: or any Hadoop file system), its length in
 * bytes, and the byte range [start, end) whose lines this part reads (the whole file unless split).
 */
public record SourceFile(String uri, long length, long start, long end) {
    public SourceFile {
        requireNonNull(uri, "uri is null");
        if (length < 0 || start < 0 || end < start || end > length) {
            throw new IllegalArgumentException("bad range [" + start + ", " + end + ") of " + length + " bytes");
        }
    }

    public SourceFile(String uri, long length) {
        this(uri, length, 0, length);
    }

    /** Whether this is part of a file rather than all of it. */
    public boolean isPart() {
        return start > 0 || end < length;
    }

    /** The bytes this part covers. */
    public long size() {
        return end - start;
    }

    /** Where errors say a row comes from: the file, and the part's first byte when it is a part. */
    public String describe() {
        return isPart() ? uri + " (part from byte " + start + ")" : uri;
    }

    /**
     * The file cut into parts of about {@code partBytes} at line boundaries (TiDB's SPLIT_FILE): each part reads the
     * lines that start in its range. Only right for files whose fields hold no line breaks.
     */
    public List<SourceFile> split(long partBytes) {
        if (partBytes <= 0) {
            throw new IllegalArgumentException("partBytes must be positive: " + partBytes);
        }
        List<SourceFile> parts = new ArrayList<>();
        for (long from = start; from < end; from += partBytes) {
            parts.add(new SourceFile(uri, length, from, Math.min(end, from + partBytes)));
        }
        return parts.isEmpty() ? List.of(this) : parts;
    }
}
