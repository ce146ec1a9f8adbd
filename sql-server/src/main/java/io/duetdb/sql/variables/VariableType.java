package io.duetdb.sql.variables;

/** How a typed system variable's values are written, checked and shown. */
public enum VariableType {
    /** ON or OFF (also 1, 0, TRUE, FALSE); shown as ON or OFF, as TiDB shows its switches. */
    SWITCH,
    /** A whole number within bounds; -1 too where the variable allows TiDB's "decide automatically". */
    INTEGER,
    /** A decimal number within bounds. */
    DECIMAL,
    /** One of a fixed list of words. */
    CHOICE,
    /** Any text. */
    TEXT,
    /** A Go duration (10m0s, 1h30m, 500ms) within bounds, shown in Go's form. */
    DURATION,
    /** A time of day with a zone offset, "HH:MM +0000". */
    TIME_OF_DAY,
    /** A comma-separated list of storage engines: tikv, tiflash, tidb. */
    ENGINE_LIST,
    /** A point in time to read at: empty, a datetime 'YYYY-MM-DD HH:MM:SS' or a timestamp number. */
    SNAPSHOT
}
