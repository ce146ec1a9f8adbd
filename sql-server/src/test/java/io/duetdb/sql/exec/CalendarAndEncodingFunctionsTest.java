package io.duetdb.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;

import org.junit.jupiter.api.Test;

class CalendarAndEncodingFunctionsTest {
    private static Object call(String name, Object... args) {
        var body = CalendarFunctions.of(name) != null ? CalendarFunctions.of(name) : EncodingFunctions.of(name);
        return body != null ? body.apply(args) : EncodingFunctions.nullTolerant(name).apply(args);
    }

    @Test
    void weeksFollowMySqlsModes() {
        assertThat(call("WEEK", LocalDate.of(2008, 2, 20))).isEqualTo(7L);
        assertThat(call("WEEK", LocalDate.of(2008, 2, 20), 1L)).isEqualTo(8L);
        assertThat(call("WEEK", LocalDate.of(2008, 12, 31), 1L)).isEqualTo(53L);
        assertThat(call("WEEK", LocalDate.of(2000, 1, 1), 0L)).isEqualTo(0L);
        assertThat(call("WEEK", LocalDate.of(2000, 1, 1), 2L)).isEqualTo(52L);
        assertThat(call("YEARWEEK", LocalDate.of(1987, 1, 1))).isEqualTo(198652L);
        assertThat(call("WEEKDAY", LocalDate.of(2008, 2, 3))).isEqualTo(6L);
        assertThat(call("TO_DAYS", LocalDate.of(2007, 10, 7))).isEqualTo(733321L);
        assertThat(call("FROM_DAYS", 730669L)).isEqualTo(LocalDate.of(2000, 7, 3));
        assertThat(call("FROM_DAYS", 10L)).isNull();
    }

    @Test
    void encodingsGiveNullForWhatTheyCannotRead() {
        assertThat(call("INET_ATON", "10.0.5.9")).isEqualTo(167773449L);
        assertThat(call("INET_ATON", "127.1")).isEqualTo(2130706433L);
        assertThat(call("INET_ATON", "1.2.3.256")).isNull();
        assertThat(call("INET_NTOA", 167773449L)).isEqualTo("10.0.5.9");
        assertThat(call("CRC32", "MySQL")).isEqualTo(3259397556L);
        assertThat(call("TO_BASE64", "abc")).isEqualTo("YWJj");
        assertThat((byte[]) call("FROM_BASE64", "YWJj")).containsExactly('a', 'b', 'c');
        assertThat(call("UNHEX", "GG")).isNull();
        assertThat((byte[]) call("UNHEX", "41F")).containsExactly(0x04, 0x1F);
        assertThat(call("FIND_IN_SET", "b", "a,b,c")).isEqualTo(2L);
        assertThat(call("FIELD", "c", null, "c")).isEqualTo(2L);
        assertThat(call("ELT", 3L, "a", "b")).isNull();
    }
}
