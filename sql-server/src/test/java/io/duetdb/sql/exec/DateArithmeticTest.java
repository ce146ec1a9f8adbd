package io.duetdb.sql.exec;

import static io.duetdb.sql.exec.QueryExecution.rows;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DateArithmeticTest {
    @Test
    void addsUnquotedIntervalsAsMySqlDoes() {
        assertThat(rows("SELECT DATE '2026-01-31' + INTERVAL 1 DAY, DATE '2026-03-31' - interval 1 month,"
                + " DATE '2026-01-31' + INTERVAL '1' YEAR")).containsExactly("2026-02-01|2026-02-28|2027-01-31");
    }

    @Test
    void dateAddAndDateSubKeepDatesAndClampTheDay() {
        assertThat(rows("SELECT DATE_ADD(DATE '2026-01-31', INTERVAL 1 MONTH), DATE_SUB(DATE '2026-03-01',"
                + " INTERVAL 1 DAY), DATE_ADD(DATE '2026-01-31', INTERVAL 2 HOUR),"
                + " DATE_SUB(TIMESTAMP '2026-01-31 10:00:00', INTERVAL 90 MINUTE)"))
                .containsExactly("2026-02-28|2026-02-28|2026-01-31 02:00:00|2026-01-31 08:30:00");
    }

    @Test
    void stringArgumentsGiveTextAndNullWhenNoDate() {
        assertThat(rows("SELECT DATE_ADD('2026-01-31', INTERVAL 1 DAY), DATE_ADD('2026-01-31 10:00:00', INTERVAL 1"
                + " DAY), DATE_ADD('nonsense', INTERVAL 1 DAY)")).containsExactly("2026-02-01|2026-02-01 10:00:00|null");
    }

    @Test
    void addDateAndSubDateAlsoTakeDays() {
        assertThat(rows("SELECT ADDDATE(DATE '2026-01-31', INTERVAL 1 DAY), ADDDATE(DATE '2026-01-31', 3),"
                + " SUBDATE('2026-01-31', 31)")).containsExactly("2026-02-01|2026-02-03|2025-12-31");
    }

    @Test
    void lengthCountsBytesAndCurrentUserTakesParentheses() {
        assertThat(rows("SELECT LENGTH('ab'), LENGTH('\u00e9'), CHAR_LENGTH('\u00e9'), CURRENT_USER(), CURRENT_USER"))
                .containsExactly("2|2|1|root@localhost|root@localhost");
    }

    @Test
    void aggregatesSkipRowsTheirFilterRejects() {
        assertThat(rows("SELECT COUNT(*) FILTER (WHERE k > 1), SUM(k) FILTER (WHERE k < 3), COUNT(*)"
                + " FROM (VALUES (1), (2), (3)) AS t(k)")).containsExactly("2|3|3");
    }
}
