package io.duetdb.testing.tpcc;

import java.sql.SQLException;

/**
 * One of the five transactions on a terminal's connection (autocommit off): {@link #input} draws the terminal's
 * inputs, {@link #execute} runs them to a commit, or to the rollback the specification asks for. A retried
 * transaction runs again with the same inputs.
 */
interface TpccTransaction<I> {
    /** How a run ended. */
    enum Outcome { COMMITTED, ROLLED_BACK }

    I input();

    Outcome execute(I input) throws SQLException;
}
