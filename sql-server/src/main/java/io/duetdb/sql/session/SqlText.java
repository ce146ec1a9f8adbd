package io.duetdb.sql.session;

import io.duetdb.sql.parser.ExecutableComments;

/** Text-level preparation of statements: comments and terminators trimmed; slices of statements' text. */
final class SqlText {
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
