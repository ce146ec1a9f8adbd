package io.duetdb.common.types;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class CollationTest {
    @Test
    void generalCiIgnoresCaseAccentsAndTrailingSpaces() {
        Collation general = Collation.UTF8MB4_GENERAL_CI;
        assertThat(general.compare("alice", "ALICE")).isZero();
        assertThat(general.compare("Émile", "emile")).isZero();
        assertThat(general.compare("carol ", "carol")).isZero();
        assertThat(general.compare("Straße", "STRASE")).isZero(); // ß weighs as S
        assertThat(general.compare("a", "b")).isNegative();
        assertThat(general.compare("B", "a")).isPositive();
        assertThat(general.compare("\uD83D\uDE00", "\uD83D\uDE01")).isZero(); // beyond the BMP: U+FFFD
    }

    @Test
    void unicodeCollationsExpandAndDifferInPadding() {
        assertThat(Collation.UTF8MB4_UNICODE_CI.compare("Straße", "STRASSE")).isZero();
        assertThat(Collation.UTF8MB4_0900_AI_CI.compare("résumé", "RESUME")).isZero();
        assertThat(Collation.UTF8MB4_UNICODE_CI.compare("x ", "x")).isZero();
        assertThat(Collation.UTF8MB4_0900_AI_CI.compare("x ", "x")).isPositive(); // NO PAD
        assertThat(Collation.UTF8MB4_0900_AI_CI.compare("apple", "Banana")).isNegative();
        assertThat(Collation.UTF8MB4_0900_AI_CI.compare("a b", "ab")).isNotZero(); // spaces count
        assertThat(Collation.UTF8MB4_UNICODE_CI.compare("a-b", "ab")).isNotZero();
    }

    @Test
    void sortKeysOrderAsTheCollationCompares() {
        List<String> words = List.of("b", "A", "a ", "Ä", "z", "Zebra", "ábc", "abd", "", "ß", "ss", "st");
        for (Collation collation : Collation.values()) {
            for (String left : words) {
                for (String right : words) {
                    int byKeys = Integer.signum(Arrays.compareUnsigned(collation.sortKey(left),
                            collation.sortKey(right)));
                    assertThat(byKeys).as(collation + " " + left + " vs " + right)
                            .isEqualTo(Integer.signum(collation.compare(left, right)));
                }
            }
        }
        List<String> sorted = new ArrayList<>(List.of("b", "A", "c", "B", "a"));
        sorted.sort(Collation.UTF8MB4_GENERAL_CI::compare);
        assertThat(sorted.subList(0, 2)).containsExactlyInAnyOrder("A", "a");
        assertThat(sorted.subList(2, 4)).containsExactlyInAnyOrder("b", "B");
        assertThat(sorted.get(4)).isEqualTo("c");
    }

    @Test
    void foldsForLikeCharacterByCharacter() {
        assertThat(Collation.UTF8MB4_GENERAL_CI.foldForMatching("Émile%_")).isEqualTo("EMILE%_");
        assertThat(Collation.UTF8MB4_BIN.foldForMatching("Émile")).isEqualTo("Émile");
    }

    @Test
    void namesOfOtherCharacterSetsMapOntoUtf8mb4() {
        assertThat(Collation.named("UTF8MB4_GENERAL_CI")).contains(Collation.UTF8MB4_GENERAL_CI);
        assertThat(Collation.named("utf8_general_ci")).contains(Collation.UTF8MB4_GENERAL_CI);
        assertThat(Collation.named("latin1_swedish_ci")).contains(Collation.UTF8MB4_GENERAL_CI);
        assertThat(Collation.named("utf8mb3_unicode_ci")).contains(Collation.UTF8MB4_UNICODE_CI);
        assertThat(Collation.named("utf8mb4_0900_bin")).contains(Collation.UTF8MB4_BIN);
        assertThat(Collation.named("binary")).contains(Collation.UTF8MB4_BIN);
        assertThat(Collation.named("klingon_ci")).isEmpty();
        assertThat(Collation.named("utf8mb4_klingon_ci")).isEmpty();
        assertThat(Collation.defaultOf("utf8mb4")).contains(Collation.UTF8MB4_BIN);
        assertThat(Collation.defaultOf("latin1")).contains(Collation.UTF8MB4_GENERAL_CI);
        assertThat(Collation.defaultOf("koi8r")).isEmpty();
    }

    @Test
    void typesKeepCollationsOfTextOnly() {
        assertThat(SqlType.varchar(5).withCollation(Collation.UTF8MB4_GENERAL_CI).effectiveCollation())
                .isEqualTo(Collation.UTF8MB4_GENERAL_CI);
        assertThat(SqlType.varchar(5).withCollation(Collation.UTF8MB4_BIN)).isEqualTo(SqlType.varchar(5));
        assertThat(SqlType.INT.withCollation(Collation.UTF8MB4_GENERAL_CI).collation()).isNull();
    }
}
