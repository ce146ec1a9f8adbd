package io.duetdb.sql.exec;

import static io.duetdb.sql.exec.QueryExecution.rows;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** IN and NOT IN with a sub-query follow SQL's three-valued logic: a NULL on either side makes "no" unknown. */
class NotInSubQueryTest {
    private static final String OUTER = "(VALUES (1, 'a'), (2, 'b'), (CAST(NULL AS INT), 'n')) AS l(k, v)";

    @Test
    void notInIsTrueOnlyWhenNoValueCanMatch() {
        assertThat(rows("SELECT v FROM " + OUTER + " WHERE k NOT IN (SELECT k FROM (VALUES (1), (3)) AS r(k))"))
                .containsExactly("b");
    }

    @Test
    void notInANullIsNeverTrue() {
        assertThat(rows("SELECT v FROM " + OUTER + " WHERE k NOT IN (SELECT k FROM (VALUES (1), (CAST(NULL AS INT)))"
                + " AS r(k))")).isEmpty();
        assertThat(rows("SELECT v, k NOT IN (SELECT k FROM (VALUES (1), (CAST(NULL AS INT))) AS r(k)),"
                + " k IN (SELECT k FROM (VALUES (1), (CAST(NULL AS INT))) AS r(k)) FROM " + OUTER))
                .containsExactlyInAnyOrder("a|0|1", "b|null|null", "n|null|null");
    }

    @Test
    void notInAnEmptySetIsTrueEvenForNull() {
        assertThat(rows("SELECT v FROM " + OUTER + " WHERE k NOT IN (SELECT k FROM (VALUES (1)) AS r(k) WHERE k > 5)"))
                .containsExactlyInAnyOrder("a", "b", "n");
    }

    @Test
    void inIgnoresNullsOfTheSubQuery() {
        assertThat(rows("SELECT v FROM " + OUTER + " WHERE k IN (SELECT k FROM (VALUES (1), (CAST(NULL AS INT)))"
                + " AS r(k))")).containsExactly("a");
    }
}
