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
 * @param serverThreads the size of Ratis' shared server thread pool (0: a cached pool)
 * @param snapshotTransfer how a replica that misses log entries gets the state
 */
public record RaftNodeOptions(String nodeId, String bindHost, int port, Path storageDirectory,
        Duration electionTimeoutMin, Duration electionTimeoutMax, long snapshotThreshold, Duration requestTimeout,
        int serverThreads, SnapshotTransfer snapshotTransfer) {
    public enum SnapshotTransfer {
        /** Ratis ships the snapshot files ({@link ReplicatedStateMachine}). */
        RATIS_FILES,
        /** The state machine fetches the state itself ({@link DurableStateMachine}). */
        STATE_MACHINE
    }

    public RaftNodeOptions {
        requireNonNull(nodeId, "nodeId is null");
        requireNonNull(bindHost, "bindHost is null");
        requireNonNull(storageDirectory, "storageDirectory is null");
        requireNonNull(electionTimeoutMin, "electionTimeoutMin is null");
        requireNonNull(electionTimeoutMax, "electionTimeoutMax is null");
        requireNonNull(requestTimeout, "requestTimeout is null");
        requireNonNull(snapshotTransfer, "snapshotTransfer is null");
        if (electionTimeoutMax.compareTo(electionTimeoutMin) <= 0) {
            throw new IllegalArgumentException("election timeout max " + electionTimeoutMax
                    + " must exceed min " + electionTimeoutMin);
        }
        if (serverThreads < 0) {
            throw new IllegalArgumentException("server threads must not be negative");
        }
        if (snapshotThreshold < 1) {
            throw new IllegalArgumentException("snapshot threshold must be positive");
        }
    }
}
