package io.duetdb.bulk.export;

import io.duetdb.common.types.SqlType;

/** A column value as a MySQL literal: numbers bare, everything else quoted with mysqldump's escapes, NULL. */
final class SqlLiteral {
    private SqlLiteral() {
    }

    static void append(StringBuilder out, Object value, SqlType type) {
        String text = ValueText.format(value, type);
        if (text == null) {
            out.append("NULL");
            return;
        }
        switch (type.storageType()) {
            case INT64, UINT64, FLOAT32, FLOAT64, DECIMAL -> out.append(text);
            default -> quoted(out, text);
        }
    }

    static void quoted(StringBuilder out, String text) {
        out.append('\'');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\0' -> out.append("\\0");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\u001a' -> out.append("\\Z");
                case '\'' -> out.append("\\'");
                case '\\' -> out.append("\\\\");
                default -> out.append(c);
            }
        }
        out.append('\'');
    }
}
