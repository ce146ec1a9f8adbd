package io.duetdb.common.catalog;

import static java.util.Objects.requireNonNull;

/**
 * An expression a column is computed from, kept as the SQL text written in its definition: a generated column
 * ({@code GENERATED ALWAYS AS (text) VIRTUAL | STORED}) or an expression default ({@code DEFAULT (text)}). Both
 * kinds of generated column keep their values in the row, computed when the row is written, so readers of the
 * row (coprocessors, learners, the Spark connector) see them as ordinary columns.
 */
public record ColumnExpression(String text, Kind kind) {
    public enum Kind {
        VIRTUAL,
        STORED,
        DEFAULT,
        /**
         * A column whose type a MODIFY or CHANGE replaced, kept write-only (under a hidden name) until no server
         * reads it: computed from its replacement (the text names it), which must convert back to the same value.
         */
        PREVIOUS_TYPE
    }

    public ColumnExpression {
        requireNonNull(text, "text is null");
        requireNonNull(kind, "kind is null");
    }

    public boolean generated() {
        return kind != Kind.DEFAULT;
    }
}
