package io.duetdb.sql.ddl;

import java.util.Locale;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.Collation;

/** CHARACTER SET and COLLATE clauses (of a column, a table) as the collation they choose, with MySQL's errors. */
public final class CharacterSets {
    private CharacterSets() {
    }

    /**
     * The collation that {@code characterSet} and {@code collation} (either may be null) choose; {@code fallback}
     * when both are null.
     */
    public static Collation collation(String characterSet, String collation, Collation fallback) {
        if (characterSet != null && !Collation.knownCharacterSet(characterSet)) {
            throw new DuetException(ErrorCode.UNKNOWN_CHARACTER_SET, "Unknown character set: '" + characterSet + "'");
        }
        if (collation == null) {
            return characterSet == null ? fallback : Collation.defaultOf(characterSet).orElseThrow();
        }
        Collation named = named(collation);
        if (characterSet != null && !sameCharacterSet(characterSet, collation)) {
            throw new DuetException(ErrorCode.COLLATION_CHARSET_MISMATCH, "COLLATION '" + collation
                    + "' is not valid for CHARACTER SET '" + characterSet + "'");
        }
        return named;
    }

    /** The collation of this name, or 1273. */
    public static Collation named(String collation) {
        return Collation.named(collation).orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_COLLATION,
                "Unknown collation: '" + collation + "'"));
    }

    private static boolean sameCharacterSet(String characterSet, String collation) {
        String set = characterSet.toLowerCase(Locale.ROOT);
        String name = collation.toLowerCase(Locale.ROOT);
        if (set.equals("binary") || name.equals("binary")) {
            return set.equals(name);
        }
        String prefix = name.substring(0, name.indexOf('_'));
        boolean utf8 = set.startsWith("utf8");
        return utf8 ? prefix.startsWith("utf8") : prefix.equals(set);
    }
}
