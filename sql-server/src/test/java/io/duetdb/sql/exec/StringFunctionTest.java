package io.duetdb.sql.exec;

import static io.duetdb.sql.exec.QueryExecution.rows;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StringFunctionTest {
    @Test
    void asciiGivesTheFirstByteAsMySqlDoes() {
        assertThat(rows("SELECT ASCII('A'), ASCII('abc'), ASCII('0'), ASCII(''), ASCII('\u00e9'),"
                + " ASCII(CAST(NULL AS VARCHAR(1)))")).containsExactly("65|97|48|0|195|null");
    }

    @Test
    void asciiOfASubstringComparesWithIntegers() {
        assertThat(rows("SELECT v FROM (VALUES ('Germany', 71), ('Cambodia', 71)) AS t(v, k)"
                + " WHERE ASCII(SUBSTR(v, 1, 1)) = k")).containsExactly("Germany");
    }

    @Test
    void stringsLongerThanMaxAllowedPacketAreNullAsInMySql() {
        assertThat(rows("SELECT LENGTH(REPEAT('ab', 1500000)), LENGTH(SPACE(3000000)), LENGTH(LPAD('x', 2000000, 'yz')),"
                + " RIGHT(LPAD('x', 2000000, 'yz'), 4), LEFT(RPAD('x', 6, 'yz'), 6)"))
                .containsExactly("3000000|3000000|2000000|yzyx|xyzyzy");
        // Past 64 MiB, or a count no string can hold: NULL at once, not an exhausted heap or a hung connection.
        assertThat(rows("SELECT REPEAT(REPEAT('ab', 1000000), 1000000) IS NULL, SPACE(100000000) IS NULL,"
                + " REPEAT('a', 4294967296) IS NULL, LPAD('x', 2147483647, 'y') IS NULL, RPAD('x', 100000000, 'y') IS NULL"))
                .containsExactly("1|1|1|1|1");
        assertThat(rows("SELECT REPEAT('ab', 0), REPEAT('ab', -1), SPACE(0), LPAD('abc', 2, 'z')"))
                .containsExactly("|||ab");
    }
}
