package io.duetdb.sql.catalog;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/** The privileges GRANT and REVOKE name, at global, database and table level. */
public enum Privilege {
    SELECT,
    INSERT,
    UPDATE,
    DELETE,
    CREATE,
    DROP,
    ALTER,
    INDEX,
    CREATE_USER,
    /** Seeing every connection in SHOW PROCESSLIST, not only the account's own. */
    PROCESS,
    /** KILL of other accounts' connections and statements. */
    SUPER,
    GRANT_OPTION;

    private static final Set<Privilege> GLOBAL_ONLY = EnumSet.of(CREATE_USER, PROCESS, SUPER);

    /** What ALL [PRIVILEGES] means at a level (CREATE USER, PROCESS and SUPER only globally). */
    public static Set<Privilege> all(boolean global) {
        EnumSet<Privilege> all = EnumSet.complementOf(EnumSet.of(GRANT_OPTION));
        if (!global) {
            all.removeAll(GLOBAL_ONLY);
        }
        return all;
    }

    public static Privilege parse(String written) {
        String name = written.strip().toUpperCase(Locale.ROOT).replaceAll("\\s+", "_");
        try {
            return Privilege.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new DuetException(ErrorCode.PARSE_ERROR, "You have an error in your SQL syntax; check the manual"
                    + " that corresponds to your MySQL server version for the right syntax to use near '" + written
                    + "' at line 1");
        }
    }

    /** As SHOW GRANTS and error messages spell it. */
    public String sql() {
        return name().replace('_', ' ');
    }
}
