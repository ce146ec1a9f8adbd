package io.duetdb.common.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

class JsonSortKeyTest {
    private static final List<String> TEXTS = List.of("", "a", "ab", "b", "a\0", "a\0b", "\u00e9", "z", "\uD83D\uDE00", "A");

    @Test
    void keysSortAsJsonCompares() {
        Random random = new Random(42);
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            values.add(randomValue(random, 3));
        }
        for (Object a : values) {
            for (Object b : values) {
                int expected = Integer.signum(Json.compare(a, b));
                int actual = Integer.signum(Arrays.compareUnsigned(JsonSortKey.of(a), JsonSortKey.of(b)));
                assertThat(actual).as("%s vs %s", Json.write(a), Json.write(b)).isEqualTo(expected);
            }
        }
    }

    @Test
    void numbersOfEveryJavaTypeSortByValue() {
        List<Object> ascending = List.of(-1e20, new BigDecimal("-12.5"), -12L, -1L, new BigDecimal("-0.001"), 0L,
                new BigDecimal("0.001"), 0.5, 1L, new BigDecimal("1.25"), 10L, 12L, new BigInteger("18446744073709551615"),
                1e30);
        for (int i = 0; i + 1 < ascending.size(); i++) {
            assertThat(Arrays.compareUnsigned(JsonSortKey.of(ascending.get(i)), JsonSortKey.of(ascending.get(i + 1))))
                    .as("%s < %s", ascending.get(i), ascending.get(i + 1)).isNegative();
        }
        assertThat(JsonSortKey.of(new BigDecimal("1.50"))).isEqualTo(JsonSortKey.of(1.5));
        assertThat(JsonSortKey.of(new BigDecimal("0.00"))).isEqualTo(JsonSortKey.of(0L));
    }

    private static Object randomValue(Random random, int depth) {
        int kind = random.nextInt(depth > 0 ? 8 : 6);
        return switch (kind) {
            case 0 -> JsonNull.NULL;
            case 1 -> (long) random.nextInt(21) - 10;
            case 2 -> BigDecimal.valueOf(random.nextInt(2001) - 1000, random.nextInt(4));
            case 3 -> random.nextInt(5) - 2 + random.nextInt(4) / 4.0;
            case 4 -> TEXTS.get(random.nextInt(TEXTS.size()));
            case 5 -> random.nextBoolean();
            case 6 -> {
                List<Object> array = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(randomValue(random, depth - 1));
                }
                yield array;
            }
            default -> {
                Map<String, Object> object = Json.newObject();
                for (int i = random.nextInt(3); i > 0; i--) {
                    object.put(TEXTS.get(random.nextInt(TEXTS.size())), randomValue(random, depth - 1));
                }
                yield object;
            }
        };
    }
}
