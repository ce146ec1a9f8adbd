package io.duetdb.sql.protocol;

import java.util.regex.Pattern;

/**
 * Statements a client may prepare that the session answers from their text rather than through the parser and
 * planner: transaction control, SET, SHOW, USE, DESCRIBE, KILL and account statements. MySQL prepares them
 * (sysbench prepares BEGIN and COMMIT, for one); the protocol handler keeps their text under a statement id of
 * its own and runs them as COM_QUERY would, answering in the binary protocol.
 */
final class TextStatements {
    private static final Pattern STATEMENT = Pattern.compile("(?is)\\s*(?:/\\*.*?\\*/\\s*)*(?:begin|start\\s+transaction"
            + "|commit|rollback|set|show|use|desc|describe|kill|create\\s+user|drop\\s+user|alter\\s+user|grant"
            + "|revoke|flush|admin)\\b.*");

    private TextStatements() {
    }

    /** True for such a statement without placeholders ({@code SET @x = ?} goes to the session, which refuses it). */
    static boolean isTextStatement(String sql) {
        return STATEMENT.matcher(sql).matches() && !hasPlaceholder(sql);
    }

    private static boolean hasPlaceholder(String sql) {
        char quote = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (quote != 0) {
                if (c == '\\' && quote != '`') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '?') {
                return true;
            }
        }
        return false;
    }
}
