package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The engines a statement's READ_FROM_STORAGE hints ask for, by table name (TiDB's
 * {@code /*+ READ_FROM_STORAGE(TIFLASH[t1, t2], TIKV[t3]) *}{@code /}).
 */
public record StorageHints(Map<String, Engine> engines) {
    public static final StorageHints NONE = new StorageHints(Map.of());

    /** An engine as TiDB's hints name it. */
    public enum Engine {
        TIKV, TIFLASH;

        /** The engine a hint option names ({@code TIFLASH[}), if it names one. */
        public static Optional<Engine> named(String option) {
            String name = option.endsWith("[") ? option.substring(0, option.length() - 1) : option;
            for (Engine engine : values()) {
                if (engine.name().equalsIgnoreCase(name)) {
                    return Optional.of(engine);
                }
            }
            return Optional.empty();
        }
    }

    public StorageHints {
        engines = Map.copyOf(requireNonNull(engines, "engines is null"));
    }

    /** The engine hinted for a table, by its name. */
    public Optional<Engine> engineOf(String tableName) {
        return engines.isEmpty() ? Optional.empty()
                : Optional.ofNullable(engines.get(tableName.toLowerCase(Locale.ROOT)));
    }
}
