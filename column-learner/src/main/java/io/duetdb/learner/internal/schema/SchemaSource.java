package io.duetdb.learner.internal.schema;

import java.util.Map;

/** Where a learner reads table schemas from: the cluster's catalog. */
public interface SchemaSource {
    /** The catalog's schema version; it grows with every schema change. */
    long schemaVersion();

    /** Every table's schema, by table id, at one snapshot of the catalog. */
    Map<Long, TableSchema> tables();
}
