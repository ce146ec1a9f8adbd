package io.duetdb.sql.ddl;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.bulk.importer.ImportResult;
import io.duetdb.client.kv.RawKvClient;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.common.catalog.CatalogRecords;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.Keys;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.catalog.DdlJob;

/**
 * The catalog side of a physical import (IMPORT INTO), as a DDL job: the table must be empty; its rows are written
 * under a new table id that no statement reads, committed at the start timestamp of a transaction held open meanwhile
 * (which holds GC below it); then one DDL step gives the table the new id, so every row appears at once. A failed
 * import leaves the table as it was and its pairs are destroyed. Writes to the table while it is imported fail the
 * import at that step rather than being lost.
 */
public final class TableImport {
    private static final Logger LOG = LoggerFactory.getLogger(TableImport.class);

    private final Catalog catalog;
    private final TxnClient client;
    private final ColumnarReplicas replicas;

    TableImport(Catalog catalog, TxnClient client, ColumnarReplicas replicas) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.client = requireNonNull(client, "client is null");
        this.replicas = requireNonNull(replicas, "replicas is null");
    }

    /**
     * Imports into table {@code name} ({database, table}): {@code body} writes the rows into the table it is given
     * (the table under its new id) at the given commit timestamp; returns what it wrote, once the rows are visible.
     */
    public ImportResult run(String[] name, BiFunction<TableInfo, Long, ImportResult> body, LongSupplier rowsSoFar) {
        DdlJobRecord job = new DdlJobRecord(catalog, "import into");
        try {
            ImportResult result = run(name, body, rowsSoFar, job);
            job.finish(null);
            return result;
        } catch (RuntimeException e) {
            job.finish(e);
            throw e;
        }
    }

    private ImportResult run(String[] name, BiFunction<TableInfo, Long, ImportResult> body, LongSupplier rowsSoFar,
            DdlJobRecord job) {
        TableInfo table = DdlExecutor.table(catalog.current(), name);
        if (table.hasWriteExpressions()) {
            throw new DuetException(ErrorCode.IMPORT_PRECHECK_FAILED, "PreCheck failed: table " + name[0] + "."
                    + name[1] + " has generated columns, expression defaults or enforced CHECK constraints, which a"
                    + " physical import does not compute; use LOAD DATA");
        }
        try (Transaction holder = client.begin()) {
            long commitTs = holder.startTs();
            if (!holder.scan(Keys.tablePrefix(table.id()), Keys.tableEnd(table.id()), 1).isEmpty()) {
                throw new DuetException(ErrorCode.IMPORT_PRECHECK_FAILED, "PreCheck failed: target table "
                        + name[0] + "." + name[1] + " is not empty");
            }
            long newId = job.runDdl("import into " + name[0] + "." + name[1] + " (prepare)", (ddl, current) -> {
                TableInfo now = DdlExecutor.table(current, name);
                checkUnchanged(table, now, name);
                long id = ddl.nextId();
                job.describe(name[0], now.name(), now.databaseId(), now.id(), "importing");
                return id;
            });
            LOG.info("import into {}.{}: writing table {} under new id {} at ts {}", name[0], name[1], table.id(), newId,
                    commitTs);
            ImportResult result;
            // The job's row count moves while the rows are read (ADMIN SHOW DDL JOBS on any server shows it).
            ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(
                    new NamedThreadFactory("sql", "import", "job-progress"));
            try {
                reporter.scheduleAtFixedRate(() -> job.progress(rowsSoFar.getAsLong(), true), 1, 1, TimeUnit.SECONDS);
                try {
                    result = body.apply(table.withId(newId), commitTs);
                } finally {
                    reporter.shutdownNow();
                    reporter.awaitTermination(5, TimeUnit.SECONDS);
                }
                if (result.maxAutoIncrement() > 0) {
                    catalog.rebase(CatalogRecords.autoIncrementCounter(newId), result.maxAutoIncrement());
                }
                if (result.rowIdsUsed() > 0) {
                    catalog.rebase(CatalogRecords.rowIdCounter(newId), result.rowIdsUsed());
                }
                job.progress(result.rows(), false);
                job.runDdl("import into " + name[0] + "." + name[1] + " (publish)", (ddl, current) -> {
                    TableInfo now = DdlExecutor.table(current, name);
                    checkUnchanged(table, now, name);
                    if (!ddl.rangeEmpty(Keys.tablePrefix(now.id()), Keys.tableEnd(now.id()))) {
                        throw new DuetException(ErrorCode.IMPORT_PRECHECK_FAILED, "table " + name[0] + "." + name[1]
                                + " was written while it was imported; nothing was imported");
                    }
                    ddl.deleteTable(now.databaseId(), now.id());
                    ddl.putTable(now.withId(newId));
                    job.describe(name[0], now.name(), now.databaseId(), newId, DdlJob.schemaStateText(
                            SchemaState.PUBLIC));
                    return null;
                });
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                DuetException interrupted = new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
                destroy(newId, interrupted);
                throw interrupted;
            } catch (RuntimeException e) {
                destroy(newId, e);
                throw e;
            }
            if (table.columnarReplicas() > 0) {
                replicas.sync();
            }
            return result;
        }
    }

    /** The table's definition must be the one the import encoded with. */
    private static void checkUnchanged(TableInfo before, TableInfo now, String[] name) {
        if (now.id() != before.id() || !now.columns().equals(before.columns()) || !now.indexes().equals(before.indexes())) {
            throw new DuetException(ErrorCode.IMPORT_PRECHECK_FAILED, "table " + name[0] + "." + name[1]
                    + " changed while it was imported (DDL ran on it); nothing was imported");
        }
    }

    private void destroy(long newId, RuntimeException cause) {
        try (RawKvClient kv = new RawKvClient(client.placement())) {
            kv.destroyTransactionalRange(Keys.tablePrefix(newId), Keys.tableEnd(newId));
            LOG.info("import under table id {} failed ({}); its pairs were destroyed", newId, cause.getMessage());
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
            LOG.warn("import under table id {} failed and its pairs could not be destroyed: {}", newId, e.toString());
        }
    }
}
