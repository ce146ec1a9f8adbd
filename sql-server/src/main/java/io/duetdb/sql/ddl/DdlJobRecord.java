package io.duetdb.sql.ddl;

import static java.util.Objects.requireNonNull;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.catalog.DdlJob;

/**
 * One DDL job's record while the job runs. Each catalog step of the job writes the record in the step's own
 * transaction, so the record and the schema move together; the first step that changes something creates it
 * (a statement that fails its checks or changes nothing leaves no job). Backfill progress and the end of the
 * job are written in transactions of their own.
 */
final class DdlJobRecord {
    private static final Logger LOG = LoggerFactory.getLogger(DdlJobRecord.class);
    private static final long PROGRESS_INTERVAL_NANOS = 500_000_000L;

    private final Catalog catalog;
    private final DdlJob initial;
    /** The record as last committed; null until a step committed one. */
    private DdlJob committed;
    /** What the running step attempt will write: committed plus the step's changes. */
    private DdlJob pending;
    private boolean changed;
    private long lastProgressNanos;

    DdlJobRecord(Catalog catalog, String type) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        long now = System.currentTimeMillis();
        this.initial = new DdlJob(0, requireNonNull(type, "type is null"), "", "", 0, 0, DdlJob.NO_SCHEMA_STATE, 0,
                now, now, 0, DdlJob.State.RUNNING);
        this.pending = initial;
    }

    /** Runs one catalog step of the job; the step calls {@link #describe} or {@link #schemaState} to record. */
    <T> T runDdl(String description, Catalog.DdlStep<T> step) {
        T result = catalog.runDdl(description, (ddl, current) -> {
            // A step may be attempted more than once: each attempt starts from the committed record.
            pending = committed != null ? committed : initial;
            changed = false;
            T stepResult = step.apply(ddl, current);
            if (changed) {
                if (pending.id() == 0) {
                    pending = ddl.putNewJob(pending);
                } else {
                    ddl.putJob(pending);
                }
            }
            return stepResult;
        });
        if (changed) {
            committed = pending;
        }
        return result;
    }

    /** The object the job changes and the state it reaches in this step. */
    void describe(String databaseName, String tableName, long schemaId, long tableId, String schemaState) {
        pending = pending.withObject(databaseName, tableName, schemaId, tableId, schemaState);
        changed = true;
    }

    void schemaState(String schemaState) {
        pending = pending.withSchemaState(schemaState);
        changed = true;
    }

    /**
     * Rows a backfill has written so far: written at most twice a second while {@code more} are to come, so that
     * other servers see progress; otherwise kept for the job's next step.
     */
    void progress(long rows, boolean more) {
        if (committed == null) {
            return;
        }
        committed = committed.withRowCount(rows);
        long now = System.nanoTime();
        if (more && now - lastProgressNanos >= PROGRESS_INTERVAL_NANOS) {
            lastProgressNanos = now;
            write(committed);
            LOG.info("DDL job {} ({} on {}.{}): {} rows backfilled", committed.id(), committed.type(),
                    committed.databaseName(), committed.tableName(), rows);
        }
    }

    /** The job ended: synced, or cancelled (KILL QUERY) or failed by {@code failure}. */
    void finish(RuntimeException failure) {
        if (committed == null) {
            return;
        }
        DdlJob.State state = failure == null ? DdlJob.State.SYNCED
                : failure instanceof DuetException duet && duet.code() == ErrorCode.QUERY_INTERRUPTED
                        ? DdlJob.State.CANCELLED : DdlJob.State.FAILED;
        committed = committed.finished(state, System.currentTimeMillis());
        write(committed);
        LOG.info("DDL job {} ({} on {}.{}) {}: {} rows, {} ms", committed.id(), committed.type(),
                committed.databaseName(), committed.tableName(), state.text(), committed.rowCount(),
                committed.endTimeMillis() - committed.startTimeMillis());
    }

    private void write(DdlJob job) {
        try {
            catalog.putJob(job);
        } catch (RuntimeException e) {
            // The record is for people watching; the job itself goes on.
            LOG.warn("Recording DDL job {} failed: {}", job.id(), e.getMessage());
        }
    }
}
