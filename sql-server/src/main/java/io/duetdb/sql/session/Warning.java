package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

/** What a statement left for SHOW WARNINGS: its level, MySQL code and message. */
public record Warning(Level level, int code, String message) {
    /** ER_UNKNOWN_ERROR's number, for notes MySQL has no code of its own for. */
    public static final int GENERIC = 1105;

    /** SHOW WARNINGS' Level column. */
    public enum Level {
        NOTE("Note"),
        WARNING("Warning"),
        ERROR("Error");

        private final String label;

        Level(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public Warning {
        requireNonNull(level, "level is null");
        requireNonNull(message, "message is null");
    }

    public Warning(int code, String message) {
        this(Level.WARNING, code, message);
    }
}
