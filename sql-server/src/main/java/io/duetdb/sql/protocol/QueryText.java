package io.duetdb.sql.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;

import io.netty.buffer.ByteBuf;

/**
 * The text of a statement as a client sends it (COM_QUERY, COM_STMT_PREPARE): UTF-8, except that string
 * literals may carry raw bytes. Drivers quote byte-array parameters with the bytes themselves between the
 * quotes, as {@code _binary'...'} (Go's driver with interpolateParams, PyMySQL's binary_prefix) or as a plain
 * {@code '...'} (PyMySQL by default), and those bytes need not be UTF-8. A {@code _binary} literal, and any
 * literal that is not UTF-8, becomes {@code X'hex'} of its bytes (escapes decoded), so the bytes reach a
 * VARBINARY or BLOB column unchanged, as in MySQL. The character-set introducers of UTF-8 ({@code _utf8mb4'...'},
 * {@code _utf8'...'}) are dropped, and {@code _binary} before a hexadecimal literal too. Comments and quoted
 * names are passed over; the rest is decoded as it is.
 */
final class QueryText {
    private static final String[] DROPPED_INTRODUCERS = {"_utf8mb4", "_utf8mb3", "_utf8"};
    private static final String BINARY = "_binary";

    private QueryText() {
    }

    static String read(ByteBuf packet) {
        byte[] bytes = new byte[packet.readableBytes()];
        packet.readBytes(bytes);
        return decode(bytes);
    }

    static String decode(byte[] sql) {
        if (indexOfUnderscore(sql) < 0 && isUtf8(sql, 0, sql.length)) {
            return new String(sql, StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(sql.length + 16);
        int i = 0;
        while (i < sql.length) {
            int c = sql[i] & 0xFF;
            int end;
            if (c == '\'' || c == '"') {
                end = stringEnd(sql, i);
                if (!isUtf8(sql, i, end)) {
                    writeHexadecimal(out, unescape(sql, i, end));
                    i = end;
                    continue;
                }
            } else if (c == '`') {
                end = quotedNameEnd(sql, i);
            } else if (c == '#' || c == '-' && startsLineComment(sql, i)) {
                end = lineEnd(sql, i);
            } else if (c == '/' && i + 2 < sql.length && sql[i + 1] == '*' && sql[i + 2] != '!' && sql[i + 2] != '+') {
                end = blockCommentEnd(sql, i);
            } else if (c == '_' && (i == 0 || !isIdentifierByte(sql[i - 1]))) {
                end = introducer(sql, i, out);
                if (end > i) {
                    i = end;
                    continue;
                }
                end = i + 1;
            } else {
                end = i + 1;
            }
            out.write(sql, i, end - i);
            i = end;
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static void writeHexadecimal(ByteArrayOutputStream out, byte[] value) {
        out.writeBytes(("X'" + HexFormat.of().formatHex(value) + "'").getBytes(StandardCharsets.US_ASCII));
    }

    private static boolean isUtf8(byte[] sql, int start, int end) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(sql, start, end - start));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static int indexOfUnderscore(byte[] sql) {
        for (int i = 0; i < sql.length; i++) {
            if (sql[i] == '_') {
                return i;
            }
        }
        return -1;
    }

    /**
     * An introducer at {@code start} followed by a literal: writes its replacement and returns the index after
     * the literal; returns {@code start} (and writes nothing) otherwise.
     */
    private static int introducer(byte[] sql, int start, ByteArrayOutputStream out) {
        String name = word(sql, start);
        boolean binary = name.equals(BINARY);
        boolean dropped = false;
        for (String introducer : DROPPED_INTRODUCERS) {
            dropped |= name.equals(introducer);
        }
        if (!binary && !dropped) {
            return start;
        }
        int literal = start + name.length();
        while (literal < sql.length && isSpace(sql[literal])) {
            literal++;
        }
        if (literal >= sql.length) {
            return start;
        }
        int c = sql[literal] & 0xFF;
        if (c == '\'' || c == '"') {
            int end = stringEnd(sql, literal);
            if (binary || !isUtf8(sql, literal, end)) {
                writeHexadecimal(out, unescape(sql, literal, end));
            } else {
                out.write(sql, literal, end - literal);
            }
            return end;
        }
        boolean hexadecimal = (c == 'x' || c == 'X') && literal + 1 < sql.length && sql[literal + 1] == '\''
                || c == '0' && literal + 1 < sql.length && (sql[literal + 1] == 'x' || sql[literal + 1] == 'b');
        // _binary X'41' and _binary 0x41 are the literal alone; the literal itself is copied by the caller.
        return binary && hexadecimal ? literal : start;
    }

    private static String word(byte[] sql, int start) {
        int end = start;
        while (end < sql.length && isIdentifierByte(sql[end])) {
            end++;
        }
        return new String(sql, start, end - start, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
    }

    /** The index after the string literal that starts with the quote at {@code start} (the end if unclosed). */
    private static int stringEnd(byte[] sql, int start) {
        byte quote = sql[start];
        int i = start + 1;
        while (i < sql.length) {
            byte c = sql[i];
            if (c == '\\') {
                i += 2;
            } else if (c == quote) {
                if (i + 1 < sql.length && sql[i + 1] == quote) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return sql.length;
    }

    /** The bytes a string literal stands for, MySQL's backslash escapes and doubled quotes decoded. */
    private static byte[] unescape(byte[] sql, int start, int end) {
        byte quote = sql[start];
        int last = end - 1 > start && sql[end - 1] == quote ? end - 1 : end;
        ByteArrayOutputStream value = new ByteArrayOutputStream(last - start);
        for (int i = start + 1; i < last; i++) {
            byte c = sql[i];
            if (c == '\\' && i + 1 < last) {
                byte escaped = sql[++i];
                switch (escaped) {
                    case '0' -> value.write(0);
                    case 'b' -> value.write('\b');
                    case 'n' -> value.write('\n');
                    case 'r' -> value.write('\r');
                    case 't' -> value.write('\t');
                    case 'Z' -> value.write(0x1A);
                    case '%', '_' -> {
                        value.write('\\');
                        value.write(escaped);
                    }
                    default -> value.write(escaped);
                }
            } else if (c == quote && i + 1 < last && sql[i + 1] == quote) {
                value.write(quote);
                i++;
            } else {
                value.write(c);
            }
        }
        return value.toByteArray();
    }

    private static int quotedNameEnd(byte[] sql, int start) {
        int i = start + 1;
        while (i < sql.length) {
            if (sql[i] == '`') {
                if (i + 1 < sql.length && sql[i + 1] == '`') {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length;
    }

    /** MySQL's "-- " comment: two dashes followed by a space or a control character (or the end). */
    private static boolean startsLineComment(byte[] sql, int start) {
        return start + 1 < sql.length && sql[start + 1] == '-'
                && (start + 2 >= sql.length || (sql[start + 2] & 0xFF) <= ' ');
    }

    private static int lineEnd(byte[] sql, int start) {
        int i = start;
        while (i < sql.length && sql[i] != '\n') {
            i++;
        }
        return i;
    }

    private static int blockCommentEnd(byte[] sql, int start) {
        for (int i = start + 2; i + 1 < sql.length; i++) {
            if (sql[i] == '*' && sql[i + 1] == '/') {
                return i + 2;
            }
        }
        return sql.length;
    }

    private static boolean isIdentifierByte(byte b) {
        int c = b & 0xFF;
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$'
                || c >= 0x80;
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f';
    }
}
