package io.duetdb.sql.exec;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * The storage engines a session lets its reads use (TiDB's tidb_isolation_read_engines): tikv (the row store),
 * tiflash (column learners), tidb (the server's own tables). Tables are read from column learners when the row
 * store is not allowed and learners are, or when a READ_FROM_STORAGE hint asks for them; choosing between engines by
 * cost is the planner's next step.
 */
public record ReadEngines(boolean rowStore, boolean columnar) {
    static final String VARIABLE = "tidb_isolation_read_engines";

    public static ReadEngines of(SessionFunctions session) {
        Object value = session.systemVariable("", VARIABLE);
        if (value == null) {
            return new ReadEngines(true, true);
        }
        Set<String> engines = new TreeSet<>();
        for (String engine : value.toString().split(",")) {
            engines.add(engine.trim().toLowerCase(Locale.ROOT));
        }
        return new ReadEngines(engines.contains("tikv"), engines.contains("tiflash"));
    }

    /**
     * The engines that may read {@code table} in this statement: the session's, narrowed to the one a
     * READ_FROM_STORAGE hint names when the session allows it and it can read the table (TiDB ignores such a hint
     * otherwise, and so does DuetDB).
     */
    public static ReadEngines of(SessionFunctions session, TableInfo table) {
        ReadEngines allowed = of(session);
        java.util.Optional<StorageHints.Engine> hinted = session.storageHints().engineOf(table.name());
        if (hinted.isEmpty()) {
            return allowed;
        }
        if (hinted.get() == StorageHints.Engine.TIFLASH && allowed.columnar && table.columnarReplicas() > 0) {
            return new ReadEngines(false, true);
        }
        if (hinted.get() == StorageHints.Engine.TIKV && allowed.rowStore) {
            return new ReadEngines(true, false);
        }
        return allowed;
    }

    /** Whether table reads go to column learners. */
    public boolean learnersOnly() {
        return columnar && !rowStore;
    }

    /** Fails as TiDB does when the allowed engines cannot read the table. */
    public void checkReadable(TableInfo table, String engines) {
        if (!rowStore && (!columnar || table.columnarReplicas() == 0)) {
            throw new DuetException(ErrorCode.NO_ACCESS_PATH, "No access path for table '" + table.name()
                    + "' is found with '" + VARIABLE + "' = '" + engines + "', valid values can be '"
                    + (table.columnarReplicas() > 0 ? "tikv, tiflash" : "tikv") + "'.");
        }
    }
}
