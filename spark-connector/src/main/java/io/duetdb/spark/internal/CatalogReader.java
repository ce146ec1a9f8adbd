package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.common.catalog.CatalogRecords;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.TableInfo;

/**
 * Databases and tables as DuetDB's catalog records hold them at a snapshot: the newest one, or a past timestamp
 * for reads of history. Each call reads in a transaction of its own.
 */
public final class CatalogReader {
    /** The databases Spark does not list: MySQL's system schemas hold no DuetDB tables. */
    private static final List<String> HIDDEN = List.of("information_schema", "performance_schema", "mysql", "metrics_schema");

    private final TxnClient transactions;
    private final CatalogRecords records = new CatalogRecords();

    public CatalogReader(TxnClient transactions) {
        this.transactions = requireNonNull(transactions, "transactions is null");
    }

    public List<DatabaseInfo> databases() {
        return read(0, transaction -> records.databases(transaction).stream()
                .filter(database -> !HIDDEN.contains(database.name().toLowerCase(Locale.ROOT))
                        && !database.holdsTemporaryTables()).toList());
    }

    public Optional<DatabaseInfo> database(String name) {
        return databases().stream().filter(database -> database.name().equalsIgnoreCase(name)).findFirst();
    }

    /** The database's base tables (not views), at the newest snapshot. */
    public List<TableInfo> tables(DatabaseInfo database) {
        return read(0, transaction -> records.tables(transaction, database.id()).stream()
                .filter(table -> table.view() == null).toList());
    }

    /** The table {@code database.name} as of {@code readTs} (0: the newest). */
    public Optional<TableInfo> table(String database, String name, long readTs) {
        return read(readTs, transaction -> {
            for (DatabaseInfo candidate : records.databases(transaction)) {
                if (candidate.name().equalsIgnoreCase(database)) {
                    return records.tables(transaction, candidate.id()).stream()
                            .filter(table -> table.name().equalsIgnoreCase(name) && table.view() == null).findFirst();
                }
            }
            return Optional.empty();
        });
    }

    /** The row count of the table's last ANALYZE (its statistics, as the SQL servers keep them), if any. */
    public Optional<Long> analyzedRowCount(long tableId) {
        return read(0, transaction -> records.analyzedRowCount(transaction, tableId));
    }

    private <T> T read(long readTs, Function<Transaction, T> reader) {
        try (Transaction transaction = readTs == 0 ? transactions.begin() : transactions.beginAt(readTs)) {
            return reader.apply(transaction);
        }
    }
}
