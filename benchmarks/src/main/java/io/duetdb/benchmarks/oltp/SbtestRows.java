package io.duetdb.benchmarks.oltp;

import java.util.concurrent.ThreadLocalRandom;

/** sysbench's table shape and value texts, for the parts that write through Connector/J themselves. */
final class SbtestRows {
    private SbtestRows() {
    }

    /** CREATE TABLE for a sysbench-shaped table: an INT primary key, two CHAR columns and a secondary index on k. */
    static String createTable(String table) {
        return "CREATE TABLE " + table + " (id INT NOT NULL, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '',"
                + " pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k_1 (k))";
    }

    /** sysbench's c value: ten groups of eleven digits joined by dashes (119 characters). */
    static String cValue() {
        return digits(10, 11);
    }

    /** sysbench's pad value: five groups of eleven digits (59 characters). */
    static String padValue() {
        return digits(5, 11);
    }

    private static String digits(int groups, int length) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        StringBuilder text = new StringBuilder(groups * (length + 1));
        for (int group = 0; group < groups; group++) {
            if (group > 0) {
                text.append('-');
            }
            for (int i = 0; i < length; i++) {
                text.append((char) ('0' + random.nextInt(10)));
            }
        }
        return text.toString();
    }
}
