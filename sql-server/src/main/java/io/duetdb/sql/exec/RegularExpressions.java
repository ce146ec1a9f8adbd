package io.duetdb.sql.exec;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * MySQL's REGEXP / RLIKE and REGEXP_LIKE, REGEXP_INSTR, REGEXP_SUBSTR and REGEXP_REPLACE, over java.util.regex
 * (MySQL uses ICU; the syntax both share is what applications write). Text compares as its utf8mb4_bin collation
 * does, case-sensitively, unless the match type says otherwise. Positions count characters from 1.
 */
final class RegularExpressions {
    private RegularExpressions() {
    }

    /** The body of the function over non-NULL arguments, or null when {@code name} is not one of these. */
    static Function<Object[], Object> of(String name) {
        AtomicReference<Compiled> cache = new AtomicReference<>();
        return switch (name) {
            case "RLIKE", "REGEXP_LIKE" -> args -> matcher(cache, name, args, 1, 2).find();
            case "NOT RLIKE" -> args -> !matcher(cache, name, args, 1, 2).find();
            // REGEXP_INSTR(text, pattern[, position[, occurrence[, return_option[, match_type]]]]).
            case "REGEXP_INSTR" -> args -> {
                Matcher found = occurrence(matcher(cache, name, args, 1, 5), args, 2, 3);
                if (found == null) {
                    return 0L;
                }
                String text = Values.toText(args[0]);
                int end = args.length > 4 && Values.toLong(args[4]) == 1 ? found.end() : found.start();
                return (long) text.codePointCount(0, end) + 1;
            };
            // REGEXP_SUBSTR(text, pattern[, position[, occurrence[, match_type]]]): NULL when nothing matches.
            case "REGEXP_SUBSTR" -> args -> {
                Matcher found = occurrence(matcher(cache, name, args, 1, 4), args, 2, 3);
                return found == null ? null : found.group();
            };
            // REGEXP_REPLACE(text, pattern, replacement[, position[, occurrence[, match_type]]]): occurrence 0 is all.
            case "REGEXP_REPLACE" -> args -> replace(matcher(cache, name, args, 1, 5), args);
            default -> null;
        };
    }

    private record Compiled(String regex, int flags, Pattern pattern) {
    }

    private static Matcher matcher(AtomicReference<Compiled> cache, String name, Object[] args, int patternIndex,
            int matchTypeIndex) {
        String regex = Values.toText(args[patternIndex]);
        int flags = args.length > matchTypeIndex ? flags(name, Values.toText(args[matchTypeIndex])) : 0;
        Compiled compiled = cache.get();
        if (compiled == null || compiled.flags() != flags || !compiled.regex().equals(regex)) {
            try {
                compiled = new Compiled(regex, flags, Pattern.compile(regex, flags));
            } catch (PatternSyntaxException e) {
                throw new DuetException(ErrorCode.REGEXP_SYNTAX, "Syntax error in regular expression on line 1,"
                        + " character " + (Math.max(e.getIndex(), 0) + 1) + ".");
            }
            cache.set(compiled);
        }
        return compiled.pattern().matcher(Values.toText(args[0]));
    }

    /** MySQL's match types: c case-sensitive, i case-insensitive, m multi-line, n '.' matches line ends, u Unix lines. */
    private static int flags(String name, String matchType) {
        int flags = 0;
        for (char type : matchType.toCharArray()) {
            switch (type) {
                case 'c' -> flags &= ~(Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
                case 'i' -> flags |= Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
                case 'm' -> flags |= Pattern.MULTILINE;
                case 'n' -> flags |= Pattern.DOTALL;
                case 'u' -> flags |= Pattern.UNIX_LINES;
                default -> throw new DuetException(ErrorCode.WRONG_ARGUMENTS, "Incorrect arguments to "
                        + name.toLowerCase(java.util.Locale.ROOT));
            }
        }
        return flags;
    }

    /** The match of the given occurrence (1 by default) searching from the given position (1 by default). */
    private static Matcher occurrence(Matcher matcher, Object[] args, int positionIndex, int occurrenceIndex) {
        if (!matcher.region(start(matcher, args, positionIndex), matcher.regionEnd()).find()) {
            return null;
        }
        long occurrence = args.length > occurrenceIndex ? Values.toLong(args[occurrenceIndex]) : 1;
        for (long i = 1; i < occurrence; i++) {
            if (!matcher.find()) {
                return null;
            }
        }
        return matcher;
    }

    private static Object replace(Matcher matcher, Object[] args) {
        String text = Values.toText(args[0]);
        String replacement = Values.toText(args[2]);
        int start = start(matcher, args, 3);
        long occurrence = args.length > 4 ? Values.toLong(args[4]) : 0;
        StringBuilder result = new StringBuilder(text.substring(0, start));
        // region() resets the matcher's append position to 0: appendReplacement adds the text from there first.
        matcher.region(start, text.length());
        int copied = start;
        int appended = 0;
        for (long seen = 1; matcher.find(); seen++) {
            if (occurrence == 0 || seen == occurrence) {
                StringBuilder piece = new StringBuilder();
                matcher.appendReplacement(piece, replacement);
                result.append(text, copied, matcher.start()).append(piece, matcher.start() - appended, piece.length());
                copied = matcher.end();
                appended = matcher.end();
                if (occurrence != 0) {
                    break;
                }
            }
        }
        return result.append(text, copied, text.length()).toString();
    }

    /** The character index where the search starts; a position outside the text is MySQL's error 3686. */
    private static int start(Matcher matcher, Object[] args, int positionIndex) {
        String text = Values.toText(args[0]);
        long position = args.length > positionIndex ? Values.toLong(args[positionIndex]) : 1;
        int characters = text.codePointCount(0, text.length());
        if (position < 1 || position > characters + 1) {
            throw new DuetException(ErrorCode.REGEXP_INDEX_OUT_OF_BOUNDS, "Index out of bounds in regular"
                    + " expression search.");
        }
        return text.offsetByCodePoints(0, (int) position - 1);
    }
}
