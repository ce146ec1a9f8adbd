package io.duetdb.raft;

/** A position in a Raft log: the term and index of an entry. Index -1 means "nothing yet". */
public record LogPosition(long term, long index) implements Comparable<LogPosition> {
    public static final LogPosition NONE = new LogPosition(0, -1);

    @Override
    public int compareTo(LogPosition other) {
        return Long.compare(index, other.index);
    }

    @Override
    public String toString() {
        return "(term " + term + ", index " + index + ")";
    }
}
