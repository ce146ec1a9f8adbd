package io.duetdb.sql.parser.generated;

import java.util.Locale;
import java.util.Set;

/**
 * MySQL's escapes in string literals: backslashes and doubled quotes. Calcite's BigQuery-style strings accept
 * backslash escapes in the lexer but only unescape the quote ({@code \'}), leaving {@code \n}, {@code \t} or
 * {@code \\} as two characters.
 * {@link MySqlTokenManager} decodes MySQL's escapes in each string token and writes the token back in the form the
 * parser's quote stripping turns into exactly the decoded text. Token positions are untouched, so column labels
 * taken from the statement text stay right.
 */
public final class MySqlStringLiterals {
    private MySqlStringLiterals() {
    }

    /** The string token {@code token} with its MySQL escapes decoded; any other token as it is. */
    static Token decoded(Token token) {
        if (token.kind == DuetSqlParserImplConstants.BIG_QUERY_QUOTED_STRING) {
            token.image = rewrite(token.image, '\'');
        } else if (token.kind == DuetSqlParserImplConstants.BIG_QUERY_DOUBLE_QUOTED_STRING) {
            token.image = rewrite(token.image, '"');
        }
        return token;
    }

    /** MySQL's character sets, whose names with an underscore introduce a string (_utf8mb4'text'). */
    private static final Set<String> INTRODUCERS = Set.of("_utf8mb4", "_utf8", "_utf8mb3", "_latin1", "_binary",
            "_ascii", "_utf16", "_utf32", "_ucs2", "_gbk", "_gb18030");

    static boolean isIntroducer(String identifier) {
        return INTRODUCERS.contains(identifier.toLowerCase(Locale.ROOT));
    }

    /** Appends the decoded string token {@code next} to the decoded string token {@code token}, which ends there. */
    static void append(Token token, Token next) {
        char quote = token.image.charAt(0);
        token.image = encode(text(token) + text(next), quote);
        token.endLine = next.endLine;
        token.endColumn = next.endColumn;
    }

    /** The text of a decoded string token, as the parser reads it. */
    private static String text(Token token) {
        char quote = token.image.charAt(0);
        return token.image.substring(1, token.image.length() - 1).replace("\\" + quote, String.valueOf(quote));
    }

    /**
     * The token for the string {@code image} means in MySQL: the parser strips the quotes and turns each
     * backslash-quote into a quote, so a quote the decoded text has right after a backslash gets one more
     * backslash in front.
     */
    static String rewrite(String image, char quote) {
        if (image.indexOf('\\') < 0 && image.indexOf(quote, 1) == image.length() - 1) {
            return image;
        }
        return encode(decode(image.substring(1, image.length() - 1), quote), quote);
    }

    /** The token whose text, as the parser strips it, is {@code decoded}. */
    private static String encode(String decoded, char quote) {
        StringBuilder token = new StringBuilder(decoded.length() + 2).append(quote);
        for (int i = 0; i < decoded.length(); i++) {
            char c = decoded.charAt(i);
            if (c == quote && i > 0 && decoded.charAt(i - 1) == '\\') {
                token.append('\\');
            }
            token.append(c);
        }
        return token.append(quote).toString();
    }

    /**
     * MySQL's escapes: a doubled {@code quote} is one; {@code \%} and {@code \_} keep their backslash for LIKE, any
     * other {@code \x} is x.
     */
    static String decode(String content, char quote) {
        StringBuilder decoded = new StringBuilder(content.length());
        for (int i = 0; i < content.length(); i++) {
            char c = content.charAt(i);
            if (c == quote && i + 1 < content.length() && content.charAt(i + 1) == quote) {
                decoded.append(quote);
                i++;
                continue;
            }
            if (c != '\\' || i + 1 == content.length()) {
                decoded.append(c);
                continue;
            }
            char next = content.charAt(++i);
            switch (next) {
                case '0' -> decoded.append('\0');
                case 'b' -> decoded.append('\b');
                case 'n' -> decoded.append('\n');
                case 'r' -> decoded.append('\r');
                case 't' -> decoded.append('\t');
                case 'Z' -> decoded.append('\u001A');
                case '%', '_' -> decoded.append('\\').append(next);
                default -> decoded.append(next);
            }
        }
        return decoded.toString();
    }
}
