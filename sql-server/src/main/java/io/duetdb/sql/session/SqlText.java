package io.duetdb.sql.session;

import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.duetdb.sql.parser.ExecutableComments;

/** Text-level preparation of statements: comments and terminators trimmed, system variables rewritten. */
final class SqlText {
    private static final Pattern SYSTEM_VARIABLE =
            Pattern.compile("@@(?:(global|session|local)\\.)?([A-Za-z_][A-Za-z0-9_]*)", Pattern.CASE_INSENSITIVE);
    private static final Pattern USER_VARIABLE = Pattern.compile("@([A-Za-z0-9_$.]+)");
    private static final Pattern REWRITTEN = Pattern.compile(
            "DUET_(?:INTEGER_)?SYSTEM_VARIABLE\\('([a-z]*)', '([A-Za-z0-9_]+)'\\)"
                    + "|(?:CAST\\()?DUET_USER_VARIABLE\\('([A-Za-z0-9_$.]+)'\\)(?: AS [A-Z]+(?:\\(\\d+, \\d+\\))?\\))?");

    private SqlText() {
    }

    /** Reveals executable comments' text, drops leading comments (optimizer hints' text is kept in place), whitespace and trailing ';'. */
    static String trim(String sql) {
        // MySQL's executable comments are statement text wherever the statement goes next.
        String text = ExecutableComments.reveal(sql).strip();
        while (true) {
            if (text.startsWith("/*") && !text.startsWith("/*+")) {
                int end = text.indexOf("*/");
                if (end < 0) {
                    return text;
                }
                text = text.substring(end + 2).strip();
            } else if (text.startsWith("-- ") || text.startsWith("#")) {
                int end = text.indexOf('\n');
                text = end < 0 ? "" : text.substring(end + 1).strip();
            } else {
                break;
            }
        }
        while (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).strip();
        }
        return text;
    }

    /**
     * Rewrites {@code @@[scope.]name} outside quotes into calls of DUET_SYSTEM_VARIABLE, or of
     * DUET_INTEGER_SYSTEM_VARIABLE for the variables MySQL types as BIGINT, and user variables {@code @name} into
     * calls of DUET_USER_VARIABLE (not after a quote: {@code 'user'@host} names an account), each cast to the SQL
     * type of its current value ({@code userVariableType}: BIGINT, DECIMAL(p, s), DOUBLE, or null for text and
     * unset ones), so that {@code @v + 1} computes as MySQL does with the type the variable holds.
     */
    static String rewriteVariables(String sql, Function<String, String> userVariableType) {
        if (sql.indexOf('@') < 0) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + 32);
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = closingQuote(sql, i, c);
                out.append(sql, i, end);
                i = end;
                continue;
            }
            if (c == '@' && sql.startsWith("@@", i)) {
                Matcher matcher = SYSTEM_VARIABLE.matcher(sql);
                if (matcher.find(i) && matcher.start() == i) {
                    String scope = matcher.group(1) == null ? "" : matcher.group(1).toLowerCase();
                    out.append(SystemVariables.isInteger(matcher.group(2)) ? "DUET_INTEGER_SYSTEM_VARIABLE('"
                            : "DUET_SYSTEM_VARIABLE('").append(scope).append("', '").append(matcher.group(2)).append("')");
                    i = matcher.end();
                    continue;
                }
            }
            if (c == '@' && !sql.startsWith("@@", i) && (i == 0 || !isNamePart(sql.charAt(i - 1)))) {
                Matcher matcher = USER_VARIABLE.matcher(sql);
                if (matcher.find(i) && matcher.start() == i) {
                    String name = matcher.group(1).toLowerCase(Locale.ROOT);
                    String type = userVariableType.apply(name);
                    String call = "DUET_USER_VARIABLE('" + name + "')";
                    out.append(type == null ? call : "CAST(" + call + " AS " + type + ")");
                    i = matcher.end();
                    continue;
                }
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    /** The label MySQL gives a select item: its text, with rewritten system variables spelled back. */
    static String label(String text) {
        Matcher matcher = REWRITTEN.matcher(text);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            String scope = matcher.group(1);
            matcher.appendReplacement(out, Matcher.quoteReplacement(matcher.group(3) != null ? "@" + matcher.group(3)
                    : "@@" + (scope.isEmpty() ? "" : scope + ".") + matcher.group(2)));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    /** Characters a quoted text or a name ends with: an {@code @} after them is not a user variable. */
    private static boolean isNamePart(char c) {
        return c == '\'' || c == '"' || c == '`' || Character.isLetterOrDigit(c) || c == '_';
    }

    private static int closingQuote(String sql, int start, char quote) {
        int i = start + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\\' && quote != '`') {
                i += 2;
                continue;
            }
            if (c == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }

    /** The text between two parser positions (1-based lines and columns, end inclusive). */
    static String slice(String sql, int line, int column, int endLine, int endColumn) {
        int start = offset(sql, line, column);
        int end = offset(sql, endLine, endColumn) + 1;
        if (start < 0 || end > sql.length() || start >= end) {
            return null;
        }
        return sql.substring(start, end);
    }

    private static int offset(String sql, int line, int column) {
        int offset = 0;
        for (int current = 1; current < line; current++) {
            int newline = sql.indexOf('\n', offset);
            if (newline < 0) {
                return -1;
            }
            offset = newline + 1;
        }
        return offset + column - 1;
    }
}
