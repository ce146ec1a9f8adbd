package io.duetdb.raft.internal;

import java.io.IOException;

import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.util.LifeCycle;

/**
 * Moves the Ratis life cycle the way Ratis expects when it installs a snapshot: running after
 * {@link #initialize}, paused before the state is replaced, running again after {@link #reinitialize}.
 */
abstract class LifecycleStateMachine extends BaseStateMachine {
    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage storage) throws IOException {
        super.initialize(server, groupId, storage);
        getLifeCycle().transition(LifeCycle.State.STARTING);
        load();
        getLifeCycle().transition(LifeCycle.State.RUNNING);
    }

    @Override
    public void pause() {
        LifeCycle lifeCycle = getLifeCycle();
        if (lifeCycle.getCurrentState() == LifeCycle.State.RUNNING) {
            lifeCycle.transition(LifeCycle.State.PAUSING);
            lifeCycle.transition(LifeCycle.State.PAUSED);
        }
    }

    @Override
    public void reinitialize() throws IOException {
        LifeCycle lifeCycle = getLifeCycle();
        if (lifeCycle.getCurrentState() == LifeCycle.State.PAUSED) {
            lifeCycle.transition(LifeCycle.State.STARTING);
        }
        load();
        if (lifeCycle.getCurrentState() == LifeCycle.State.STARTING) {
            lifeCycle.transition(LifeCycle.State.RUNNING);
        }
    }

    /** Loads the state from storage: at start and after a snapshot was installed. */
    abstract void load() throws IOException;
}
