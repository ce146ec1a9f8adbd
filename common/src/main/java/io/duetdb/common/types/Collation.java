package io.duetdb.common.types;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import com.ibm.icu.text.Collator;
import com.ibm.icu.util.ULocale;

/**
 * How text compares: MySQL's utf8mb4 collations. Text is stored as it was written; a collation other than the binary
 * one compares, orders, groups and keys values by their sort keys ({@link #sortKey}), byte strings whose unsigned
 * order is the collation's order, as TiDB's new collation framework does. Index keys of such columns hold the sort
 * key, so a unique index is unique under the collation.
 * <p>
 * utf8mb4_general_ci weighs each character by its upper case without accents, as MySQL's table does (characters
 * beyond the Basic Multilingual Plane weigh as U+FFFD). The two Unicode collations weigh by the Unicode Collation
 * Algorithm's primary strength, ICU's root collation (case and accents ignored, ß equal to ss, spaces and
 * punctuation significant); its weights are those of a later UCA version than MySQL's tables (4.0.0 and 9.0.0),
 * which order a few rare characters differently.
 */
public enum Collation {
    UTF8MB4_BIN("utf8mb4_bin", 46, true, Weighing.BINARY),
    UTF8MB4_GENERAL_CI("utf8mb4_general_ci", 45, true, Weighing.GENERAL),
    UTF8MB4_UNICODE_CI("utf8mb4_unicode_ci", 224, true, Weighing.UNICODE),
    UTF8MB4_0900_AI_CI("utf8mb4_0900_ai_ci", 255, false, Weighing.UNICODE);

    /** The collation of text columns that name none (TiDB's default). */
    public static final Collation DEFAULT = UTF8MB4_BIN;

    private enum Weighing {
        BINARY, GENERAL, UNICODE
    }

    private static final char[] GENERAL_WEIGHTS = generalWeights();

    private final String collationName;
    private final int id;
    private final boolean padSpace;
    private final Weighing weighing;
    private final Collator collator;

    Collation(String collationName, int id, boolean padSpace, Weighing weighing) {
        this.collationName = collationName;
        this.id = id;
        this.padSpace = padSpace;
        this.weighing = weighing;
        if (weighing == Weighing.UNICODE) {
            Collator root = Collator.getInstance(ULocale.ROOT);
            root.setStrength(Collator.PRIMARY);
            root.setDecomposition(Collator.CANONICAL_DECOMPOSITION);
            this.collator = root.freeze(); // frozen: safe to share between threads
        } else {
            this.collator = null;
        }
    }

    /** The collation's name as MySQL spells it. */
    public String collationName() {
        return collationName;
    }

    /** MySQL's number for the collation (the character set number of the wire protocol's column definitions). */
    public int id() {
        return id;
    }

    public String characterSet() {
        return "utf8mb4";
    }

    /** PAD SPACE (trailing spaces do not count) or NO PAD. */
    public boolean padSpace() {
        return padSpace;
    }

    /** Whether values compare as their bytes (then {@link #sortKey} is not needed). */
    public boolean binary() {
        return weighing == Weighing.BINARY;
    }

    /**
     * The collation of this name (any case): the utf8mb4 collations above, and the collations of MySQL's other
     * character sets that applications' schemas name (utf8mb3, utf8, latin1, ascii), which DuetDB stores as utf8mb4
     * and compares as the utf8mb4 collation of the same kind. Empty for other names.
     */
    public static Optional<Collation> named(String name) {
        requireNonNull(name, "name is null");
        String lower = name.toLowerCase(Locale.ROOT);
        for (Collation collation : values()) {
            if (collation.collationName.equals(lower)) {
                return Optional.of(collation);
            }
        }
        int separator = lower.indexOf('_');
        if (lower.equals("binary")) {
            return Optional.of(UTF8MB4_BIN);
        }
        if (separator < 0) {
            return Optional.empty();
        }
        String characterSet = lower.substring(0, separator);
        String kind = lower.substring(separator + 1);
        if (!characterSet.equals("utf8mb4") && !characterSet.equals("utf8mb3") && !characterSet.equals("utf8")
                && !characterSet.equals("latin1") && !characterSet.equals("ascii")) {
            return Optional.empty();
        }
        return switch (kind) {
            case "bin", "0900_bin", "general_cs" -> Optional.of(UTF8MB4_BIN);
            case "general_ci", "swedish_ci", "general_mysql500_ci" -> Optional.of(UTF8MB4_GENERAL_CI);
            case "unicode_ci", "unicode_520_ci" -> Optional.of(UTF8MB4_UNICODE_CI);
            case "0900_ai_ci" -> Optional.of(UTF8MB4_0900_AI_CI);
            default -> Optional.empty();
        };
    }

    /**
     * The default collation of a character set: utf8mb4 and its aliases compare as utf8mb4_bin (TiDB's default),
     * latin1 as MySQL's latin1_swedish_ci does; empty for a character set DuetDB does not know.
     */
    public static Optional<Collation> defaultOf(String characterSet) {
        return switch (characterSet.toLowerCase(Locale.ROOT)) {
            case "utf8mb4", "utf8mb3", "utf8", "ascii", "binary" -> Optional.of(UTF8MB4_BIN);
            case "latin1" -> Optional.of(UTF8MB4_GENERAL_CI);
            default -> Optional.empty();
        };
    }

    /** Whether the character set is one DuetDB stores text of (as utf8mb4). */
    public static boolean knownCharacterSet(String characterSet) {
        return defaultOf(characterSet).isPresent();
    }

    /** The sort key of {@code text}: equal for texts the collation holds equal, ordered as it orders them. */
    public byte[] sortKey(String text) {
        requireNonNull(text, "text is null");
        String significant = padSpace ? stripTrailingSpaces(text) : text;
        return switch (weighing) {
            case BINARY -> significant.getBytes(StandardCharsets.UTF_8);
            case GENERAL -> generalKey(significant);
            case UNICODE -> collator.getCollationKey(significant).toByteArray();
        };
    }

    /** Compares two texts by this collation. */
    public int compare(String left, String right) {
        if (weighing == Weighing.BINARY) {
            return Arrays.compareUnsigned(left.getBytes(StandardCharsets.UTF_8),
                    right.getBytes(StandardCharsets.UTF_8));
        }
        return Arrays.compareUnsigned(sortKey(left), sortKey(right));
    }

    /**
     * {@code text} with each character replaced by one that stands for its weight, so that LIKE can match the
     * result character by character: the weight character for utf8mb4_general_ci, the upper case without accents
     * for the Unicode collations (whose expansions, ß as ss, LIKE does not see).
     */
    public String foldForMatching(String text) {
        if (weighing == Weighing.BINARY) {
            return text;
        }
        StringBuilder folded = new StringBuilder(text.length());
        text.codePoints().forEach(codePoint -> folded.append(codePoint > 0xFFFF ? '\uFFFD'
                : GENERAL_WEIGHTS[codePoint]));
        return folded.toString();
    }

    private static String stripTrailingSpaces(String text) {
        int end = text.length();
        while (end > 0 && text.charAt(end - 1) == ' ') {
            end--;
        }
        return end == text.length() ? text : text.substring(0, end);
    }

    private static byte[] generalKey(String text) {
        byte[] key = new byte[text.length() * 2];
        int length = 0;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            i += Character.charCount(codePoint);
            char weight = codePoint > 0xFFFF ? '\uFFFD' : GENERAL_WEIGHTS[codePoint];
            key[length++] = (byte) (weight >>> 8);
            key[length++] = (byte) weight;
        }
        return length == key.length ? key : Arrays.copyOf(key, length);
    }

    /** Each character's utf8mb4_general_ci weight: its base letter (accents removed) in upper case. */
    private static char[] generalWeights() {
        char[] weights = new char[0x10000];
        for (int c = 0; c < weights.length; c++) {
            weights[c] = (char) c;
            if (Character.isSurrogate((char) c) || c < 0x41) {
                continue;
            }
            int base = c;
            if (c >= 0xC0) {
                String decomposed = Normalizer.normalize(String.valueOf((char) c), Normalizer.Form.NFD);
                if (decomposed.length() > 1 && allCombining(decomposed, 1)) {
                    base = decomposed.charAt(0);
                }
            }
            int upper = Character.toUpperCase(base);
            weights[c] = upper <= 0xFFFF ? (char) upper : (char) base;
        }
        weights[0xDF] = 'S'; // ß weighs as S in MySQL's general_ci table
        return weights;
    }

    private static boolean allCombining(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            if (Character.getType(text.charAt(i)) != Character.NON_SPACING_MARK) {
                return false;
            }
        }
        return true;
    }
}
