package io.duetdb.raft;

/** What a Raft group replicates: a whole state in memory, or a state kept in the node's own storage. */
public sealed interface RaftStateMachine permits ReplicatedStateMachine, DurableStateMachine {
}
