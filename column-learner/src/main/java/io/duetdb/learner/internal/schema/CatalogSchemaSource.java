package io.duetdb.learner.internal.schema;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.common.catalog.CatalogRecords;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.compute.scan.StoredValues;
import io.duetdb.proto.coprocessor.FieldType;

/** Reads table schemas from the catalog's records in the cluster, each time at a fresh snapshot. */
public final class CatalogSchemaSource implements SchemaSource {
    private final TxnClient client;
    private final CatalogRecords records = new CatalogRecords();

    public CatalogSchemaSource(TxnClient client) {
        this.client = requireNonNull(client, "client is null");
    }

    @Override
    public long schemaVersion() {
        try (Transaction snapshot = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            return records.schemaVersion(snapshot);
        }
    }

    @Override
    public Map<Long, TableSchema> tables() {
        try (Transaction snapshot = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            long version = records.schemaVersion(snapshot);
            Map<Long, TableSchema> tables = new HashMap<>();
            for (DatabaseInfo database : records.databases(snapshot)) {
                for (TableInfo table : records.tables(snapshot, database.id())) {
                    if (table.view() == null) {
                        tables.put(table.id(), schemaOf(table, version));
                    }
                }
            }
            return tables;
        }
    }

    static TableSchema schemaOf(TableInfo table, long version) {
        List<TableSchema.Column> columns = new ArrayList<>();
        Set<Integer> ids = new HashSet<>();
        // Columns of every state: a hidden column that ALTER TABLE MODIFY is filling becomes the public one in a
        // single step, and the packs merged meanwhile must already hold its values.
        for (ColumnInfo column : table.columns()) {
            ids.add(column.id());
            FieldType type = StoredValues.columnType(column.type());
            if (type != null) {
                columns.add(new TableSchema.Column(column.id(), type,
                        StoredValues.toCompute(column.originDefault(), type)));
            }
        }
        return new TableSchema(table.id(), version, columns, ids);
    }
}
