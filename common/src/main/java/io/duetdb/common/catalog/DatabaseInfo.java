package io.duetdb.common.catalog;

import static java.util.Objects.requireNonNull;

/** A database (schema): its id and name as created. */
public record DatabaseInfo(long id, String name) {
    public DatabaseInfo {
        requireNonNull(name, "name is null");
    }
}
