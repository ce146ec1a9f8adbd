package io.duetdb.bulk.source;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * The rows of a SQL dump file as mysqldump and Dumpling write it: the values of its {@code INSERT [IGNORE] INTO t
 * [(columns)] VALUES (...), ...;} statements (and REPLACE), as text fields in MySQL's text forms; every other
 * statement (SET, CREATE TABLE, LOCK TABLES ...) and comment is skipped. Like TiDB Lightning's dump reader it is a
 * scanner of literals, not an SQL parser: a value must be a literal (a quoted string, with or without a charset
 * introducer, a number, hex or bit literal, NULL, TRUE or FALSE). Hex literals are read as UTF-8 text.
 */
public final class SqlDumpRows implements RowReader {
    private static final int EOF = -1;

    private final String file;
    private final CountingInputStream counted;
    private final Reader reader;
    private final char[] buffer = new char[1 << 16];
    private int position;
    private int limit;
    private long line = 1;
    private boolean inValues;
    /** The column list of the file's first INSERT (empty: the table's columns in order); the others must match it. */
    private List<String> columns;
    private final StringBuilder text = new StringBuilder();

    public SqlDumpRows(String file, InputStream input) {
        this.file = requireNonNull(file, "file is null");
        this.counted = new CountingInputStream(requireNonNull(input, "input is null"));
        this.reader = new InputStreamReader(counted, StandardCharsets.UTF_8);
    }

    /** The columns the first INSERT names (empty when it names none), or empty when the file has no INSERT. */
    public List<String> columns() {
        if (columns == null && !inValues) {
            findInsert();
        }
        return columns == null ? List.of() : columns;
    }

    @Override
    public Row next() {
        if (!inValues && !findInsert()) {
            return null;
        }
        skipSpace();
        long rowLine = line;
        expect('(');
        List<String> fields = new ArrayList<>();
        while (true) {
            skipSpace();
            fields.add(value());
            skipSpace();
            int c = read();
            if (c == ')') {
                break;
            }
            if (c != ',') {
                throw malformed("expected ',' or ')' after a value, found " + describe(c));
            }
        }
        skipSpace();
        int c = read();
        if (c == ';' || c == EOF) {
            inValues = false;
        } else if (c != ',') {
            throw malformed("expected ',' or ';' after a row, found " + describe(c));
        }
        return new Row(fields.toArray(String[]::new), rowLine);
    }

    /** Skips statements up to the next INSERT's values; false at the end of the file. */
    private boolean findInsert() {
        while (true) {
            skipSpace();
            int c = peek();
            if (c == EOF) {
                return false;
            }
            if (c == ';') {
                read();
                continue;
            }
            if (!Character.isLetter(c)) {
                skipStatement();
                continue;
            }
            String word = word();
            if (!word.equals("INSERT") && !word.equals("REPLACE")) {
                skipStatement();
                continue;
            }
            skipSpace();
            String next = Character.isLetter(peek()) ? word() : "";
            if (next.equals("IGNORE")) {
                skipSpace();
                next = Character.isLetter(peek()) ? word() : "";
            }
            if (next.equals("INTO")) {
                skipSpace();
            } else if (!next.isEmpty()) {
                // INSERT t VALUES ...: the word was the table's name.
                skipQualifier();
                return values();
            }
            identifier();
            skipQualifier();
            return values();
        }
    }

    private void skipQualifier() {
        skipSpace();
        if (peek() == '.') {
            read();
            skipSpace();
            identifier();
        }
    }

    /** After the table's name: an optional column list, then VALUES. */
    private boolean values() {
        skipSpace();
        List<String> named = new ArrayList<>();
        if (peek() == '(') {
            read();
            while (true) {
                skipSpace();
                named.add(identifier());
                skipSpace();
                int c = read();
                if (c == ')') {
                    break;
                }
                if (c != ',') {
                    throw malformed("expected ',' or ')' in the column list, found " + describe(c));
                }
            }
            skipSpace();
        }
        String keyword = Character.isLetter(peek()) ? word() : "";
        if (!keyword.equals("VALUES") && !keyword.equals("VALUE")) {
            throw malformed("expected VALUES in an INSERT statement, found " + (keyword.isEmpty() ? describe(peek()) : keyword));
        }
        if (columns == null) {
            columns = List.copyOf(named);
        } else if (!columns.equals(named)) {
            throw malformed("an INSERT names the columns " + named + ", the file's first one " + columns);
        }
        inValues = true;
        return true;
    }

    private String value() {
        int c = peek();
        if (c == '\'' || c == '"') {
            return quoted(read());
        }
        if (c == '_' || Character.isLetter(c)) {
            String word = word();
            skipSpace();
            int after = peek();
            if (word.startsWith("_") && (after == '\'' || after == '"')) {
                // A charset introducer (_binary, _utf8mb4): the string follows.
                return quoted(read());
            }
            if (word.equals("X") && after == '\'') {
                read();
                return hex(until('\''));
            }
            if (word.equals("B") && after == '\'') {
                read();
                String bits = until('\'');
                if (bits.isEmpty() || !bits.matches("[01]+")) {
                    throw malformed("malformed bit literal b'" + bits + "'");
                }
                return new BigInteger(bits, 2).toString();
            }
            return switch (word) {
                case "NULL" -> null;
                case "TRUE" -> "1";
                case "FALSE" -> "0";
                default -> throw malformed("the value " + word + " is not a literal");
            };
        }
        text.setLength(0);
        while ((c = peek()) != EOF && c != ',' && c != ')' && !Character.isWhitespace(c)) {
            text.append((char) read());
        }
        String number = text.toString();
        if (number.length() > 2 && (number.startsWith("0x") || number.startsWith("0X"))) {
            return hex(number.substring(2));
        }
        if (number.isEmpty() || !number.matches("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?")) {
            throw malformed("the value " + (number.isEmpty() ? describe(c) : number) + " is not a literal");
        }
        return number;
    }

    private String hex(String digits) {
        try {
            return new String(HexFormat.of().parseHex(digits), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw malformed("malformed hex literal " + digits);
        }
    }

    private String until(char end) {
        text.setLength(0);
        int c;
        while ((c = read()) != end) {
            if (c == EOF) {
                throw malformed("unterminated literal");
            }
            text.append((char) c);
        }
        return text.toString();
    }

    /** A string after its opening quote, with MySQL's escapes and doubled quotes. */
    private String quoted(int quote) {
        text.setLength(0);
        while (true) {
            int c = read();
            if (c == EOF) {
                throw malformed("unterminated string");
            }
            if (c == quote) {
                if (peek() == quote) {
                    text.append((char) read());
                    continue;
                }
                return text.toString();
            }
            if (c == '\\') {
                int escaped = read();
                switch (escaped) {
                    case '0' -> text.append('\0');
                    case 'b' -> text.append('\b');
                    case 'n' -> text.append('\n');
                    case 'r' -> text.append('\r');
                    case 't' -> text.append('\t');
                    case 'Z' -> text.append('\u001a');
                    case '%', '_' -> text.append('\\').append((char) escaped);
                    case EOF -> throw malformed("unterminated string");
                    default -> text.append((char) escaped);
                }
                continue;
            }
            text.append((char) c);
        }
    }

    /** A name, bare or in backquotes (a doubled backquote inside is one). */
    private String identifier() {
        if (peek() != '`') {
            text.setLength(0);
            int c;
            while ((c = peek()) != EOF && (Character.isLetterOrDigit(c) || c == '_' || c == '$')) {
                text.append((char) read());
            }
            if (text.isEmpty()) {
                throw malformed("expected a name, found " + describe(c));
            }
            return text.toString();
        }
        read();
        text.setLength(0);
        while (true) {
            int c = read();
            if (c == EOF) {
                throw malformed("unterminated name");
            }
            if (c == '`') {
                if (peek() != '`') {
                    return text.toString();
                }
                read();
            }
            text.append((char) c);
        }
    }

    /** A keyword or bare word, upper-cased. */
    private String word() {
        text.setLength(0);
        int c;
        while ((c = peek()) != EOF && (Character.isLetterOrDigit(c) || c == '_')) {
            text.append((char) read());
        }
        return text.toString().toUpperCase(Locale.ROOT);
    }

    /** Skips to just past the statement's ';' (or the end of the file), over quoted text and comments. */
    private void skipStatement() {
        while (true) {
            skipSpace();
            int c = read();
            switch (c) {
                case EOF, ';' -> {
                    return;
                }
                case '\'', '"' -> quoted(c);
                case '`' -> until('`');
                default -> {
                }
            }
        }
    }

    /** Skips white space and comments: {@code -- }, {@code #} and block comments (executable ones too). */
    private void skipSpace() {
        while (true) {
            int c = peek();
            if (c == EOF) {
                return;
            }
            if (Character.isWhitespace(c)) {
                read();
            } else if (c == '#') {
                skipLine();
            } else if (c == '-' && peekAt(1) == '-' && (peekAt(2) == EOF || Character.isWhitespace(peekAt(2)))) {
                skipLine();
            } else if (c == '/' && peekAt(1) == '*') {
                read();
                read();
                int previous = 0;
                while ((c = read()) != EOF && !(previous == '*' && c == '/')) {
                    previous = c;
                }
            } else {
                return;
            }
        }
    }

    private void skipLine() {
        int c;
        while ((c = read()) != EOF && c != '\n') {
            // Skipped.
        }
    }

    private void expect(char wanted) {
        int c = read();
        if (c != wanted) {
            throw malformed("expected '" + wanted + "', found " + describe(c));
        }
    }

    private int read() {
        if (position == limit && !fill(1)) {
            return EOF;
        }
        char c = buffer[position++];
        if (c == '\n') {
            line++;
        }
        return c;
    }

    private int peek() {
        return peekAt(0);
    }

    private int peekAt(int ahead) {
        if (position + ahead >= limit && !fill(ahead + 1)) {
            return EOF;
        }
        return buffer[position + ahead];
    }

    /** Makes at least {@code wanted} characters available from the position; false at the end of the file. */
    private boolean fill(int wanted) {
        if (position > 0) {
            System.arraycopy(buffer, position, buffer, 0, limit - position);
            limit -= position;
            position = 0;
        }
        try {
            while (limit < wanted) {
                int n = reader.read(buffer, limit, buffer.length - limit);
                if (n < 0) {
                    return false;
                }
                limit += n;
            }
            return true;
        } catch (IOException e) {
            throw new DuetException(ErrorCode.IMPORT_CANNOT_ACCESS, "could not read " + file + ": " + e.getMessage());
        }
    }

    private static String describe(int c) {
        return c == EOF ? "the end of the file" : "'" + (char) c + "'";
    }

    private DuetException malformed(String problem) {
        return new DuetException(ErrorCode.IMPORT_WRONG_FORMAT_CONFIG, "malformed SQL dump " + file + " at line " + line
                + ": " + problem);
    }

    @Override
    public long bytesRead() {
        return counted.count();
    }

    @Override
    public void close() {
        try {
            reader.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
