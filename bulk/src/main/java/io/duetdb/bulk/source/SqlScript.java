package io.duetdb.bulk.source;

import java.util.ArrayList;
import java.util.List;

/**
 * A SQL script (a schema file of an export or of Dumpling) cut into its statements at the {@code ;} that end
 * them, as the mysql client cuts them: not inside quoted strings or names, nor inside comments; executable comments
 * ({@code /*!40101 ... *}{@code /}) stay in their statement's text, plain comments between statements are dropped.
 */
public final class SqlScript {
    private SqlScript() {
    }

    public static List<String> statements(String script) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int i = 0;
        int n = script.length();
        while (i < n) {
            char c = script.charAt(i);
            int end;
            if (c == '\'' || c == '"' || c == '`') {
                end = afterQuoted(script, i);
            } else if (c == '#' || c == '-' && script.startsWith("--", i) && (i + 2 == n
                    || Character.isWhitespace(script.charAt(i + 2)))) {
                int newline = script.indexOf('\n', i);
                i = newline < 0 ? n : newline + 1;
                continue;
            } else if (c == '/' && script.startsWith("/*", i)) {
                int close = script.indexOf("*/", i + 2);
                end = close < 0 ? n : close + 2;
                if (!script.startsWith("/*!", i) && !script.startsWith("/*T!", i) && !script.startsWith("/*+", i)) {
                    i = end;
                    current.append(' ');
                    continue;
                }
            } else if (c == ';') {
                add(statements, current);
                i++;
                continue;
            } else {
                end = i + 1;
            }
            current.append(script, i, end);
            i = end;
        }
        add(statements, current);
        return statements;
    }

    private static void add(List<String> statements, StringBuilder current) {
        String statement = current.toString().strip();
        if (!statement.isEmpty()) {
            statements.add(statement);
        }
        current.setLength(0);
    }

    private static int afterQuoted(String text, int start) {
        char quote = text.charAt(start);
        int i = start + 1;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\\' && quote != '`') {
                i += 2;
            } else if (c == quote) {
                if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return text.length();
    }
}
