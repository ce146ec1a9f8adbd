package io.duetdb.sql.prepare;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/** The modes of a session's sql_mode that planning follows (the variable's comma-separated names). */
public record SqlMode(Set<String> modes) {
    /** MySQL 8.0's default sql_mode, which DuetDB's sessions start with. */
    public static final SqlMode DEFAULT = of("ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,"
            + "ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION");

    public SqlMode {
        modes = Set.copyOf(requireNonNull(modes, "modes is null"));
    }

    /** The modes of a sql_mode value, as SET stores it (names in any case, spaces around commas ignored). */
    public static SqlMode of(String value) {
        Set<String> modes = new TreeSet<>();
        for (String name : requireNonNull(value, "value is null").split(",")) {
            String mode = name.strip().toUpperCase(Locale.ROOT);
            if (!mode.isEmpty()) {
                modes.add(mode);
            }
        }
        return new SqlMode(modes);
    }

    /** Selected columns must be grouped or functionally dependent on the grouped ones. */
    public boolean onlyFullGroupBy() {
        return modes.contains("ONLY_FULL_GROUP_BY");
    }
}
