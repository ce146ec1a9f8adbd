package io.duetdb.sql.parser.generated;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.LinkedList;
import java.util.Locale;
import java.util.Set;

import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.util.SourceStringReader;

import io.duetdb.sql.parser.ExecutableComments;
import io.duetdb.sql.parser.VariableTypes;

/**
 * The generated lexer's tokens as MySQL reads them, where one token of look-ahead settles what Calcite's grammar
 * would decide otherwise: MySQL's string escapes ({@link MySqlStringLiterals}); VALUE, ARRAY, ROLLUP, PERIOD,
 * STREAM, UNKNOWN and USER as column and table names; JSON_OBJECT and JSON_ARRAY as MySQL's plain functions; FROM DUAL as no FROM at all; FOR before UPDATE or SHARE as
 * the locking clause's own token; TiDB's AS OF TIMESTAMP as Calcite's FOR SYSTEM_TIME AS OF; adjacent strings as
 * one, and character set introducers and N before a string dropped; bit strings (b'101') as binary strings; SELECT modifiers (SQL_NO_CACHE ...) dropped; and TiDB's bracketed hint options (see
 * {@link #inHint}); MySQL's executable comments are read as statement text ({@link ExecutableComments}).
 * Token positions are untouched. Hand-written, in the generated parser's package for its input stream.
 */
public final class MySqlTokenManager extends DuetSqlParserImplTokenManager {
    /** Calcite's parser factory for DuetDB's grammar, read through this token manager, knowing no variables. */
    public static final SqlParserImplFactory FACTORY = factory(VariableTypes.NONE);

    /** What the session knows of its variables, which types their references. */
    private final VariableTypes variableTypes;

    /** Tokens read ahead of the one handed over. */
    private final LinkedList<Token> ahead = new LinkedList<>();
    /** MySQL's SELECT modifiers that change only how MySQL would run the query, not its answer. */
    private static final Set<String> SELECT_MODIFIERS = Set.of("HIGH_PRIORITY", "STRAIGHT_JOIN", "SQL_SMALL_RESULT",
            "SQL_BIG_RESULT", "SQL_BUFFER_RESULT", "SQL_CACHE", "SQL_NO_CACHE");

    /** Whether the next token may be a SELECT modifier: it follows SELECT (and any optimizer hints). */
    private boolean afterSelect;
    /** Whether the tokens are inside an optimizer hint comment. */
    private boolean inHint;
    /** The kinds of the last two tokens handed over, the last first. */
    private int previous = EOF;
    private int beforePrevious = EOF;

    private static String readAll(Reader reader) {
        StringBuilder text = new StringBuilder();
        char[] buffer = new char[4096];
        try {
            for (int n = reader.read(buffer); n >= 0; n = reader.read(buffer)) {
                text.append(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    private MySqlTokenManager(SimpleCharStream stream, VariableTypes variableTypes) {
        super(stream);
        this.variableTypes = requireNonNull(variableTypes, "variableTypes is null");
    }

    /** Calcite's parser factory for DuetDB's grammar, read through this token manager, with a session's variables. */
    public static SqlParserImplFactory factory(VariableTypes variableTypes) {
        requireNonNull(variableTypes, "variableTypes is null");
        return reader -> {
            DuetSqlParserImpl parser = (DuetSqlParserImpl) DuetSqlParserImpl.FACTORY.getParser(
                    new SourceStringReader(ExecutableComments.reveal(readAll(reader))));
            parser.token_source = new MySqlTokenManager(parser.jj_input_stream, variableTypes);
            return parser;
        };
    }

    /** The variable types a parser's token source knows: none unless it is this token manager. */
    static VariableTypes variableTypesOf(DuetSqlParserImplTokenManager source) {
        return source instanceof MySqlTokenManager tokens ? tokens.variableTypes : VariableTypes.NONE;
    }

    @Override
    public Token getNextToken() {
        Token token = classified(next());
        beforePrevious = previous;
        previous = token.kind;
        // Select modifiers follow SELECT and its optimizer hints.
        afterSelect = token.kind == SELECT || afterSelect && (inHint || token.kind == COMMENT_END);
        return token;
    }

    private Token classified(Token token) {
        if (token.kind == HINT_BEG || token.kind == COMMENT_END) {
            inHint = token.kind == HINT_BEG;
        } else if (inHint) {
            return inHint(token);
        }
        if (afterSelect && SELECT_MODIFIERS.contains(token.image.toUpperCase(Locale.ROOT)) && !endsSelectItem(peek())) {
            // MySQL's advice to its own optimizer and query cache (mysqldump sends SQL_NO_CACHE): nothing to do here.
            // Followed by what ends a select item, the word is a name (MySQL reserves SQL_NO_CACHE no more).
            return classified(next());
        }
        if (token.kind == SQL_CALC_FOUND_ROWS && afterSelect) {
            return calcFoundRowsHint(token);
        }
        switch (token.kind) {
            // Calcite reads these keywords wherever an expression, a grouping element or a query may start, before it
            // tries an identifier; MySQL does not reserve them. VALUE (a row list, as in SUM(value)), ARRAY (a
            // constructor), ROLLUP (a grouping) and PERIOD (a period constructor) are keywords there only before a
            // parenthesis or bracket.
            case VALUE, ROLLUP, PERIOD -> identifierUnlessNext(token, LPAREN, LPAREN);
            case ARRAY -> identifierUnlessNext(token, LPAREN, LBRACKET);
            // Calcite's SQL-standard JSON constructors and aggregates (KEY k VALUE v, FORMAT JSON) are MySQL's
            // functions of plain arguments here (JSON_OBJECT('a', 1)); the planner's JSON functions answer them.
            case JSON_OBJECT, JSON_ARRAY, JSON_OBJECTAGG, JSON_ARRAYAGG -> token.kind = IDENTIFIER;
            // MySQL's doc->'path', not Calcite's lambda (x -> x + 1), which MySQL does not have.
            case LAMBDA -> token.kind = JSON_EXTRACT_ARROW;
            // Calcite's USER context variable would take user.column for a field of the function's value.
            case USER -> {
                if (peek().kind == DOT) {
                    token.kind = IDENTIFIER;
                }
            }
            // SELECT STREAM is Calcite's streaming query, which MySQL does not have.
            case STREAM -> token.kind = IDENTIFIER;
            // Calcite's UNKNOWN literal; MySQL has the word only in IS [NOT] UNKNOWN.
            case UNKNOWN -> {
                if (previous != IS && (previous != NOT || beforePrevious != IS)) {
                    token.kind = IDENTIFIER;
                }
            }
            case FROM -> {
                if (peek().kind == DUAL) {
                    // MySQL's FROM DUAL names no table.
                    ahead.removeFirst();
                    return classified(next());
                }
            }
            case FOR -> {
                // Calcite's FOR SYSTEM_TIME AS OF after a table name would take a locking clause for its own.
                int following = peek().kind;
                if (following == UPDATE || following == SHARE) {
                    token.kind = LOCKING_FOR;
                }
            }
            // TiDB's stale read after a table name (and in START TRANSACTION): the same as Calcite's FOR SYSTEM_TIME
            // AS OF, whose SqlSnapshot the statement's reader takes apart; AS alone would read OF as an alias.
            case AS -> {
                if (peek().kind == OF && peekAt(1).kind == TIMESTAMP) {
                    Token of = ahead.get(0);
                    Token timestamp = ahead.get(1);
                    respell(token, FOR, "FOR");
                    respell(of, SYSTEM_TIME, "SYSTEM_TIME");
                    Token ofAgain = new Token();
                    respell(ofAgain, OF, "OF");
                    copyPosition(timestamp, ofAgain);
                    respell(timestamp, AS, "AS");
                    ahead.add(2, ofAgain);
                }
            }
            // MySQL's adjacent strings are one ('a' 'b' is 'ab').
            case BIG_QUERY_QUOTED_STRING, BIG_QUERY_DOUBLE_QUOTED_STRING -> {
                while (isString(peek())) {
                    MySqlStringLiterals.append(token, ahead.removeFirst());
                }
            }
            // REGEXP (a reserved word, as in MySQL) is the operator RLIKE is.
            case REGEXP -> token.kind = RLIKE;
            // MySQL's hexadecimal and bit literals 0x41 and 0b101 (a 0 right before a word of digits).
            case UNSIGNED_INTEGER_LITERAL -> {
                Token following = peek();
                if (token.image.equals("0") && following.kind == IDENTIFIER && following.beginLine == token.endLine
                        && following.beginColumn == token.endColumn + 1) {
                    if (following.image.matches("x[0-9a-fA-F]+")) {
                        ahead.removeFirst();
                        String digits = following.image.substring(1);
                        respell(token, BINARY_STRING_LITERAL, "X'" + (digits.length() % 2 == 1 ? "0" : "") + digits
                                + "'");
                        token.endColumn = following.endColumn;
                    } else if (following.image.matches("b[01]+")) {
                        ahead.removeFirst();
                        Token bits = new Token();
                        bits.image = "'" + following.image.substring(1) + "'";
                        copyPosition(following, bits);
                        return bitStringAsBinary(token, bits);
                    }
                }
            }
            case IDENTIFIER -> {
                Token following = peek();
                if (isBitString(token, following)) {
                    return bitStringAsBinary(token, ahead.removeFirst());
                }
                // A character set introducer (_utf8mb4'text') or a national string (N'text'): the text is what counts.
                if (isString(following) && (MySqlStringLiterals.isIntroducer(token.image)
                        || token.image.equalsIgnoreCase("N") && following.beginLine == token.endLine
                                && following.beginColumn == token.endColumn + 1)) {
                    return classified(next());
                }
            }
            default -> {
            }
        }
        return token;
    }

    /**
     * SQL_CALC_FOUND_ROWS, the one SELECT modifier that changes an answer (FOUND_ROWS()'s): handed over as the hint
     * {@code /*+ SQL_CALC_FOUND_ROWS *}{@code /} of the SELECT, which the session reads. After other hints the SELECT
     * has its hint list already, and the word goes.
     */
    private Token calcFoundRowsHint(Token token) {
        if (previous != SELECT) {
            return classified(next());
        }
        Token name = new Token();
        respell(name, IDENTIFIER, "SQL_CALC_FOUND_ROWS");
        copyPosition(token, name);
        Token end = new Token();
        respell(end, COMMENT_END, "*/");
        copyPosition(token, end);
        ahead.addFirst(end);
        ahead.addFirst(name);
        respell(token, HINT_BEG, "/*+");
        inHint = true;
        return token;
    }

    /** MySQL's bit string b'101': a b right before a quoted string of binary digits. */
    private static boolean isBitString(Token word, Token following) {
        return word.image.equalsIgnoreCase("b") && following.kind == BIG_QUERY_QUOTED_STRING
                && following.beginLine == word.endLine && following.beginColumn == word.endColumn + 1
                && following.image.matches("'[01]*'");
    }

    /** A bit string as the binary string of the same bits (b'101' is X'05'), which Calcite's grammar reads. */
    private static Token bitStringAsBinary(Token word, Token string) {
        String digits = string.image.substring(1, string.image.length() - 1);
        StringBuilder hex = new StringBuilder();
        if (!digits.isEmpty()) {
            String hexDigits = new BigInteger(digits, 2).toString(16);
            int bytes = (digits.length() + 7) / 8;
            hex.append("0".repeat(bytes * 2 - hexDigits.length())).append(hexDigits);
        }
        respell(word, BINARY_STRING_LITERAL, "X'" + hex + "'");
        word.endLine = string.endLine;
        word.endColumn = string.endColumn;
        return word;
    }

    /** Whether a token after a word makes that word a select item or a qualifier, not a SELECT modifier. */
    private static boolean endsSelectItem(Token next) {
        return next.kind == DOT || next.kind == COMMA || next.kind == FROM || next.kind == AS || next.kind == EOF
                || next.kind == SEMICOLON;
    }

    private static boolean isString(Token token) {
        return token.kind == BIG_QUERY_QUOTED_STRING || token.kind == BIG_QUERY_DOUBLE_QUOTED_STRING;
    }

    private static void respell(Token token, int kind, String image) {
        token.kind = kind;
        token.image = image;
    }

    private static void copyPosition(Token from, Token to) {
        to.beginLine = from.beginLine;
        to.beginColumn = from.beginColumn;
        to.endLine = from.endLine;
        to.endColumn = from.endColumn;
    }

    /**
     * TiDB's hint options {@code ENGINE[t1, t2]} (READ_FROM_STORAGE(TIFLASH[t1, t2], TIKV[t3])), which Calcite's hint
     * grammar has no form for, read as a flat option list: the engine as one option named {@code TIFLASH[}, then its
     * tables; the closing bracket goes.
     */
    private Token inHint(Token token) {
        if (token.kind == RBRACKET) {
            return classified(next());
        }
        if (token.kind == IDENTIFIER && peek().kind == LBRACKET) {
            token.image = token.image + "[";
            Token bracket = ahead.peekFirst();
            bracket.kind = COMMA;
            bracket.image = ",";
        }
        return token;
    }

    private Token next() {
        return ahead.isEmpty() ? MySqlStringLiterals.decoded(lexed()) : ahead.removeFirst();
    }

    private Token peek() {
        return peekAt(0);
    }

    /** The token {@code index} places after the one being classified. */
    private Token peekAt(int index) {
        while (ahead.size() <= index) {
            ahead.addLast(MySqlStringLiterals.decoded(lexed()));
        }
        return ahead.get(index);
    }

    /**
     * The next token of the input. A quoted string is scanned here, as MySQL reads it: backslash escapes and doubled
     * quotes ('it''s') are part of it ({@link MySqlStringLiterals} decodes both). Calcite's lexer takes no doubled
     * quote in this quoting style, and its automaton costs several times as much per character, while multi-row
     * INSERTs are mostly string literals.
     */
    private Token lexed() {
        if (curLexState != BQID && curLexState != BQHID) {
            return super.getNextToken();
        }
        char first;
        try {
            first = input_stream.BeginToken();
            while (first == ' ' || first == '\t' || first == '\n' || first == '\r' || first == '\f') {
                first = input_stream.BeginToken();
            }
        } catch (IOException endOfInput) {
            return super.getNextToken();
        }
        input_stream.backup(1);
        if (first != '\'' && first != '"') {
            return super.getNextToken();
        }
        try {
            input_stream.BeginToken();
        } catch (IOException unreachable) {
            return super.getNextToken();
        }
        int read = 1;
        try {
            while (true) {
                char c = input_stream.readChar();
                read++;
                if (c == '\\') {
                    input_stream.readChar();
                    read++;
                } else if (c == first) {
                    if (!doubled(first)) {
                        break;
                    }
                    read++;
                }
            }
        } catch (IOException unterminated) {
            // The generated lexer reports the unterminated string as it would have.
            input_stream.backup(read);
            return super.getNextToken();
        }
        jjmatchedKind = first == '\'' ? BIG_QUERY_QUOTED_STRING : BIG_QUERY_DOUBLE_QUOTED_STRING;
        jjmatchedPos = read - 1;
        return jjFillToken();
    }

    /** Whether the quote just read is doubled, MySQL's other escape of a quote ('it''s'); if so both are read. */
    private boolean doubled(char quote) {
        try {
            if (input_stream.readChar() == quote) {
                return true;
            }
        } catch (IOException endOfInput) {
            return false;
        }
        input_stream.backup(1);
        return false;
    }

    private void identifierUnlessNext(Token token, int kind, int otherKind) {
        int following = peek().kind;
        if (following != kind && following != otherKind) {
            token.kind = IDENTIFIER;
        }
    }
}
