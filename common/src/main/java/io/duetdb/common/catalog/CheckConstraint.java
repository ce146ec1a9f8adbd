package io.duetdb.common.catalog;

import static java.util.Objects.requireNonNull;

/**
 * A CHECK constraint of a table: its name (unique in its database, as MySQL 8.0 wants), its condition as the SQL
 * text written, and whether it is enforced. A written row violates it when the condition is FALSE (NULL passes).
 */
public record CheckConstraint(String name, String text, boolean enforced) {
    public CheckConstraint {
        requireNonNull(name, "name is null");
        requireNonNull(text, "text is null");
    }

    public CheckConstraint withEnforced(boolean newEnforced) {
        return new CheckConstraint(name, text, newEnforced);
    }
}
