package io.duetdb.raft;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How one Raft server (one port, any number of groups) runs.
 *
 * @param nodeId the peer id of this server in every group it joins
 * @param bindHost the interface to listen on
 * @param port the Raft port
 * @param storageDirectory where Ratis keeps each group's log and snapshots
 * @param electionTimeoutMin the lower bound of the randomised election timeout; also bounds leader leases
 * @param electionTimeoutMax the upper bound
 * @param snapshotThreshold log entries applied after which a snapshot is taken (and the log purged)
 * @param requestTimeout how long a proposal may wait for commit
 */
public record RaftNodeOptions(String nodeId, String bindHost, int port, Path storageDirectory,
        Duration electionTimeoutMin, Duration electionTimeoutMax, long snapshotThreshold, Duration requestTimeout) {
    public RaftNodeOptions {
        requireNonNull(nodeId, "nodeId is null");
        requireNonNull(bindHost, "bindHost is null");
        requireNonNull(storageDirectory, "storageDirectory is null");
        requireNonNull(electionTimeoutMin, "electionTimeoutMin is null");
        requireNonNull(electionTimeoutMax, "electionTimeoutMax is null");
        requireNonNull(requestTimeout, "requestTimeout is null");
        if (electionTimeoutMax.compareTo(electionTimeoutMin) <= 0) {
            throw new IllegalArgumentException("election timeout max " + electionTimeoutMax
                    + " must exceed min " + electionTimeoutMin);
        }
        if (snapshotThreshold < 1) {
            throw new IllegalArgumentException("snapshot threshold must be positive");
        }
    }
}
