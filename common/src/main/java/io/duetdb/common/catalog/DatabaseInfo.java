package io.duetdb.common.catalog;

import static java.util.Objects.requireNonNull;

import io.duetdb.common.types.Collation;

/**
 * A database (schema): its id and name as created, and the collation of the tables created in it that name none
 * (null for the default).
 */
public record DatabaseInfo(long id, String name, Collation collation) {
    public DatabaseInfo {
        requireNonNull(name, "name is null");
        if (collation == Collation.DEFAULT) {
            collation = null;
        }
    }

    public DatabaseInfo(long id, String name) {
        this(id, name, null);
    }

    public Collation defaultCollation() {
        return collation == null ? Collation.DEFAULT : collation;
    }
}
