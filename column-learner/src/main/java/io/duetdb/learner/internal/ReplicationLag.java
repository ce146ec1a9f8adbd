package io.duetdb.learner.internal;

/**
 * How far a replica is behind its region as this learner sees it: log entries committed but not applied yet, and
 * how long the replica has been behind (zero when it has applied everything committed).
 */
public record ReplicationLag(long entries, double seconds) {
    public static final ReplicationLag NONE = new ReplicationLag(0, 0);
}
