package io.duetdb.testing.sql;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.protobuf.ByteString;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.keys.Handle;
import io.duetdb.common.keys.Keys;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.exec.TableAccess;
import io.duetdb.testing.LocalCluster;

/** Checks at the key-value level that an index holds exactly one entry per row, with the row's values. */
final class IndexConsistency {
    private IndexConsistency() {
    }

    /** The differences found (empty when the index agrees with the table). */
    static List<String> check(LocalCluster cluster, String database, String tableName, String indexName) {
        try (PlacementClient placement = cluster.newPlacementClient(); TxnClient client = new TxnClient(placement);
                Catalog catalog = new Catalog(client, Duration.ofSeconds(1));
                Transaction transaction = client.begin()) {
            TableInfo table = catalog.infoSchema(transaction).table(database, tableName).orElseThrow();
            IndexInfo index = table.index(indexName).orElseThrow();
            TableAccess access = new TableAccess(table);
            Set<ByteString> expected = new HashSet<>();
            for (Map.Entry<ByteString, byte[]> row : scan(transaction, access.recordStart(), access.recordEnd())) {
                Handle handle = access.handleOfRecordKey(row.getKey().toByteArray());
                expected.add(ByteString.copyFrom(access.indexKey(index, access.decode(row.getValue()), handle)));
            }
            Set<ByteString> actual = new HashSet<>();
            for (Map.Entry<ByteString, byte[]> entry : scan(transaction, Keys.indexPrefix(table.id(), index.id()),
                    Keys.indexEnd(table.id(), index.id()))) {
                actual.add(entry.getKey());
            }
            List<String> differences = new ArrayList<>();
            for (ByteString key : expected) {
                if (!actual.contains(key)) {
                    differences.add("missing entry " + Keys.describe(key.toByteArray()));
                }
            }
            for (ByteString key : actual) {
                if (!expected.contains(key)) {
                    differences.add("stray entry " + Keys.describe(key.toByteArray()));
                }
            }
            return differences;
        }
    }

    private static List<Map.Entry<ByteString, byte[]>> scan(Transaction transaction, byte[] start, byte[] end) {
        List<Map.Entry<ByteString, byte[]>> all = new ArrayList<>();
        byte[] from = start;
        while (true) {
            List<Map.Entry<ByteString, byte[]>> page = transaction.scan(from, end, 1000);
            all.addAll(page);
            if (page.size() < 1000) {
                return all;
            }
            byte[] last = page.get(page.size() - 1).getKey().toByteArray();
            from = Arrays.copyOf(last, last.length + 1);
        }
    }
}
