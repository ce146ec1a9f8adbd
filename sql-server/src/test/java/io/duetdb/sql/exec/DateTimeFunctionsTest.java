package io.duetdb.sql.exec;

import static io.duetdb.sql.exec.QueryExecution.rows;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** MySQL's date and time functions, and their reading of text and numbers as dates and times. */
class DateTimeFunctionsTest {
    @Test
    void datePartsReadTextNumbersAndTimes() {
        assertThat(rows("SELECT YEAR('2020-02-10'), QUARTER('2020-02-10 10:00:00'), DAYOFWEEK('2020-02-10'),"
                + " DAYNAME('2020-02-10'), LAST_DAY('2020-02-10'), YEAR(20200210), YEAR('not a date')"))
                .containsExactly("2020|1|2|Monday|2020-02-29|2020|null");
        assertThat(rows("SELECT HOUR('10:11:12'), HOUR('838:00:00'), HOUR('-01:02:03'), MINUTE('2020-02-10 10:11:12'),"
                + " SECOND(102030), HOUR(TIME '10:11:12'), MICROSECOND('10:11:12.25')"))
                .containsExactly("10|838|1|11|30|10|250000");
    }

    @Test
    void timestampDifferencesCountWholeUnits() {
        assertThat(rows("SELECT TIMESTAMPDIFF(MONTH, '2020-01-31', '2020-02-29'), TIMESTAMPDIFF(MONTH, '2020-01-31',"
                + " '2020-03-01'), TIMESTAMPDIFF(HOUR, '2020-01-02', '2020-01-01 01:30:00'),"
                + " TIMESTAMPDIFF(QUARTER, DATE '2020-01-01', DATE '2020-12-31'), TIMESTAMPDIFF(DAY, NULL, '2020-01-01')"))
                .containsExactly("0|1|-22|3|null");
    }

    @Test
    void timesAreBuiltShiftedAndFormatted() {
        assertThat(rows("SELECT SEC_TO_TIME(-3661), TIME_TO_SEC('1 01:00:00'), MAKETIME(-1, 2, 3), MAKETIME(1, 60, 0),"
                + " SUBTIME('2020-01-01 00:00:00', '00:00:01'), TIMEDIFF('00:00:00', '838:59:59'),"
                + " TIME_FORMAT('13:05:09', '%h:%i %p')"))
                .containsExactly("-01:01:01|90000|-01:02:03|null|2019-12-31 23:59:59|-838:59:59|01:05 PM");
    }

    @Test
    void zonesPeriodsAndNumbersCastToDates() {
        assertThat(rows("SELECT CONVERT_TZ('2020-01-01 12:00:00', '+05:30', 'UTC'), CONVERT_TZ('2020-01-01', 'X', 'UTC'),"
                + " PERIOD_ADD(9912, 2), PERIOD_DIFF(2001, 9912), CAST(200210 AS DATE), CAST(20200210123456 AS DATETIME)"))
                .containsExactly("2020-01-01 06:30:00|null|200002|241|2020-02-10|2020-02-10 12:34:56");
    }
}
