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
 * store is not allowed and learners are; choosing between engines by cost is the planner's next step.
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
