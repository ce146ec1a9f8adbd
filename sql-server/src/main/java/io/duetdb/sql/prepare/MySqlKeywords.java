package io.duetdb.sql.prepare;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * MySQL 8.0's keywords as its information_schema.KEYWORDS lists them (WORD, RESERVED), which Connector/J reads for
 * DatabaseMetaData.getSQLKeywords() and ORMs through it. The list is MySQL's, held as a resource.
 */
final class MySqlKeywords {
    private static final String RESOURCE = "mysql-keywords.txt";
    private static final List<Object[]> ROWS = load();

    private MySqlKeywords() {
    }

    static List<Object[]> rows() {
        return ROWS;
    }

    private static List<Object[]> load() {
        try (InputStream stream = MySqlKeywords.class.getResourceAsStream(RESOURCE)) {
            if (stream == null) {
                throw new IllegalStateException("resource " + RESOURCE + " is missing");
            }
            List<Object[]> rows = new ArrayList<>();
            BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                String trimmed = line.trim();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                String[] parts = trimmed.split("\\s+");
                rows.add(new Object[] {parts[0], parts.length > 1 && parts[1].equals("R") ? 1L : 0L});
            }
            return List.copyOf(rows);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
