package io.duetdb.sql.exec;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.function.Function;
import java.util.zip.CRC32;

import io.duetdb.common.types.Collation;

/**
 * MySQL's encoding functions over non-NULL arguments: UNHEX, TO_BASE64, FROM_BASE64, CRC32, INET_ATON, INET_NTOA,
 * BIN, OCT, and the string-list functions FIND_IN_SET, FIELD and ELT. Each gives NULL where MySQL does (text that is
 * not hexadecimal or base64, an address that is not one).
 */
final class EncodingFunctions {
    private EncodingFunctions() {
    }

    /** The body of function {@code name}, or null when it is not one of these. */
    static Function<Object[], Object> of(String name) {
        return switch (name) {
            case "UNHEX" -> args -> unhex(Values.toText(args[0]));
            case "TO_BASE64" -> args -> Base64.getMimeEncoder(76, new byte[] {'\n'}).encodeToString(bytes(args[0]));
            case "FROM_BASE64" -> args -> fromBase64(Values.toText(args[0]));
            case "CRC32" -> args -> {
                CRC32 crc = new CRC32();
                crc.update(bytes(args[0]));
                return crc.getValue();
            };
            case "INET_ATON" -> args -> inetAton(Values.toText(args[0]));
            case "INET_NTOA" -> args -> inetNtoa(Values.toLong(args[0]));
            case "BIN" -> args -> Long.toBinaryString(Values.toLong(args[0]));
            case "OCT" -> args -> Long.toOctalString(Values.toLong(args[0]));
            case "FIND_IN_SET" -> args -> findInSet(Values.toText(args[0]), Values.toText(args[1]));
            default -> null;
        };
    }

    /**
     * FIELD(x, a, b, ...) and ELT(n, a, b, ...), whose NULL arguments do not make the result NULL (FIELD skips them,
     * ELT only returns the one chosen): null when {@code name} is neither.
     */
    static Function<Object[], Object> nullTolerant(String name) {
        return switch (name) {
            case "FIELD" -> args -> {
                if (args[0] == null) {
                    return 0L;
                }
                for (int i = 1; i < args.length; i++) {
                    if (args[i] != null && Values.compare(args[0], args[i]) == 0) {
                        return (long) i;
                    }
                }
                return 0L;
            };
            case "ELT" -> args -> {
                if (args[0] == null) {
                    return null;
                }
                long index = Values.toLong(args[0]);
                return index < 1 || index >= args.length ? null : args[(int) index] == null ? null
                        : Values.toText(args[(int) index]);
            };
            default -> null;
        };
    }

    private static byte[] bytes(Object value) {
        return value instanceof byte[] raw ? raw : Values.toText(value).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] unhex(String text) {
        String digits = text.length() % 2 == 0 ? text : "0" + text;
        try {
            return HexFormat.of().parseHex(digits);
        } catch (IllegalArgumentException notHex) {
            return null;
        }
    }

    private static byte[] fromBase64(String text) {
        try {
            return Base64.getMimeDecoder().decode(text.replace(" ", ""));
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }

    /** MySQL's INET_ATON: a.b.c.d (short forms a.b.d and a.d too) as a number, NULL for anything else. */
    private static Long inetAton(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length < 1 || parts.length > 4) {
            return null;
        }
        long result = 0;
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit)) {
                return null;
            }
            long value = Long.parseLong(part);
            if (value > 255) {
                return null;
            }
            // The last part fills the remaining bytes, as in 127.1 = 127.0.0.1.
            result = i == parts.length - 1 ? (result << (8 * (4 - i))) | value : (result << 8) | value;
        }
        return result;
    }

    private static String inetNtoa(long address) {
        if (address < 0 || address > 0xFFFFFFFFL) {
            return null;
        }
        return String.format(Locale.ROOT, "%d.%d.%d.%d", address >>> 24, (address >>> 16) & 0xFF,
                (address >>> 8) & 0xFF, address & 0xFF);
    }

    /** FIND_IN_SET(s, list): the 1-based place of s in the comma-separated list, 0 when absent. */
    private static long findInSet(String item, String list) {
        return findInSet(item, list, Collation.DEFAULT);
    }

    /** FIND_IN_SET with items compared by {@code collation}. */
    static long findInSet(String item, String list, Collation collation) {
        if (item.indexOf(',') >= 0 || list.isEmpty()) {
            return 0L;
        }
        String[] items = list.split(",", -1);
        for (int i = 0; i < items.length; i++) {
            if (collation.compare(items[i], item) == 0) {
                return i + 1L;
            }
        }
        return 0L;
    }
}
