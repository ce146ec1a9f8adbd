package io.duetdb.sql.parser;

/**
 * MySQL's executable comments as MySQL's own lexer reads them: the text of {@code /*!NNNNN ... *}{@code /} (run when
 * the server's version is at least NNNNN, as mysqldump writes them), {@code /*! ... *}{@code /} and TiDB's
 * {@code /*T![feature] ... *}{@code /} is part of the statement, so their markers become spaces; MariaDB's
 * {@code /*M!} and newer versions' comments stay comments. Every other character keeps its position, so parse
 * errors and view texts point where the user wrote.
 */
public final class ExecutableComments {
    /** The version these comments are compared with: the server's, 8.0.11. */
    static final int SERVER_VERSION = 80011;

    private ExecutableComments() {
    }

    public static String reveal(String sql) {
        if (!sql.contains("/*")) {
            return sql;
        }
        char[] text = sql.toCharArray();
        boolean inExecutable = false;
        int i = 0;
        while (i < text.length) {
            char c = text[i];
            if (c == '\'' || c == '"' || c == '`') {
                i = afterQuoted(text, i);
            } else if (c == '-' && i + 2 < text.length && text[i + 1] == '-' && Character.isWhitespace(text[i + 2])
                    || c == '#') {
                while (i < text.length && text[i] != '\n') {
                    i++;
                }
            } else if (c == '*' && inExecutable && i + 1 < text.length && text[i + 1] == '/') {
                text[i] = ' ';
                text[i + 1] = ' ';
                inExecutable = false;
                i += 2;
            } else if (c == '/' && i + 2 < text.length && text[i + 1] == '*') {
                int marker = executableMarker(text, i);
                if (marker > 0 && !inExecutable) {
                    for (int j = i; j < i + marker; j++) {
                        text[j] = ' ';
                    }
                    inExecutable = true;
                    i += marker;
                } else {
                    int end = sql.indexOf("*/", i + 2);
                    i = end < 0 ? text.length : end + 2;
                }
            } else {
                i++;
            }
        }
        return new String(text);
    }

    /** The length of an executable comment's opening marker at {@code start}, or 0 when it is a plain comment. */
    private static int executableMarker(char[] text, int start) {
        int i = start + 2;
        if (text[i] == '!') {
            i++;
            int digits = 0;
            int version = 0;
            while (i < text.length && Character.isDigit(text[i]) && digits < 6) {
                version = version * 10 + (text[i] - '0');
                i++;
                digits++;
            }
            if (digits > 0 && (digits < 5 || version > SERVER_VERSION)) {
                return 0;
            }
            return i - start;
        }
        if (text[i] == 'T' && i + 2 < text.length && text[i + 1] == '!' && text[i + 2] == '[') {
            i += 3;
            while (i < text.length && text[i] != ']' && text[i] != '*') {
                i++;
            }
            return i < text.length && text[i] == ']' ? i + 1 - start : 0;
        }
        return 0;
    }

    /** The position after a quoted string or name starting at {@code start} (MySQL's backslash and doubled quotes). */
    private static int afterQuoted(char[] text, int start) {
        char quote = text[start];
        int i = start + 1;
        while (i < text.length) {
            char c = text[i];
            if (c == '\\' && quote != '`') {
                i += 2;
            } else if (c == quote) {
                if (i + 1 < text.length && text[i + 1] == quote) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return text.length;
    }
}
