package io.duetdb.sql.variables;

/** Where a system variable lives, as MySQL and TiDB scope them. */
public enum VariableScope {
    /** Each session's own (SET [SESSION]); SET GLOBAL is MySQL's 1228. */
    SESSION,
    /** The cluster's (SET GLOBAL, persisted in the catalog); SET SESSION is MySQL's 1229. */
    GLOBAL,
    /** A global value that every new session starts from, and each session's own. */
    SESSION_AND_GLOBAL;

    public boolean hasSession() {
        return this != GLOBAL;
    }

    public boolean hasGlobal() {
        return this != SESSION;
    }
}
