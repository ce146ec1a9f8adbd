package io.duetdb.common.catalog;

import static java.util.Objects.requireNonNull;

import java.util.Locale;

import io.duetdb.common.types.Collation;

/**
 * A database (schema): its id and name as created, and the collation of the tables created in it that name none
 * (null for the default).
 */
public record DatabaseInfo(long id, String name, Collation collation) {
    /**
     * The names of the databases that hold one SQL session's temporary tables begin so; they are the session's, and
     * no listing shows them.
     */
    public static final String TEMPORARY_TABLES_PREFIX = "__duet_temporary_";

    public DatabaseInfo {
        requireNonNull(name, "name is null");
        if (collation == Collation.DEFAULT) {
            collation = null;
        }
    }

    public DatabaseInfo(long id, String name) {
        this(id, name, null);
    }

    /** Whether this database holds a SQL session's temporary tables. */
    public boolean holdsTemporaryTables() {
        return name.toLowerCase(Locale.ROOT).startsWith(TEMPORARY_TABLES_PREFIX);
    }

    public Collation defaultCollation() {
        return collation == null ? Collation.DEFAULT : collation;
    }
}
