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
}
