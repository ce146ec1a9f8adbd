package io.duetdb.sql.variables;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * What SET stores for a typed variable: its value in canonical form, and the warning MySQL gives when the value
 * written was clamped into the variable's bounds (1292).
 */
public record Assignment(String value, Optional<String> warning) {
    public Assignment {
        requireNonNull(value, "value is null");
        requireNonNull(warning, "warning is null");
    }

    static Assignment exact(String value) {
        return new Assignment(value, Optional.empty());
    }
}
