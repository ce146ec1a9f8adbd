package io.duetdb.testing.tpcc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class TpccPopulationTest {
    private static final LocalDateTime LOAD_TIME = LocalDateTime.of(2026, 1, 1, 12, 0);

    private static Map<TpccTable, List<Object[]>> generate(TpccScale scale) {
        Map<TpccTable, List<Object[]>> rows = new EnumMap<>(TpccTable.class);
        TpccPopulation population = new TpccPopulation(scale, LOAD_TIME);
        for (TpccPopulation.Unit unit : population.units()) {
            population.generate(unit, (table, values) -> {
                assertThat(values).as(table.sqlName()).hasSize(table.columns().size());
                rows.computeIfAbsent(table, ignored -> new ArrayList<>()).add(values);
            });
        }
        return rows;
    }

    @Test
    void oneSpecWarehouseHasClause4331sRowCounts() {
        Map<TpccTable, List<Object[]>> rows = generate(TpccScale.spec(1));
        assertThat(rows.get(TpccTable.ITEM)).hasSize(100_000);
        assertThat(rows.get(TpccTable.WAREHOUSE)).hasSize(1);
        assertThat(rows.get(TpccTable.STOCK)).hasSize(100_000);
        assertThat(rows.get(TpccTable.DISTRICT)).hasSize(10);
        assertThat(rows.get(TpccTable.CUSTOMER)).hasSize(30_000);
        assertThat(rows.get(TpccTable.HISTORY)).hasSize(30_000);
        assertThat(rows.get(TpccTable.ORDERS)).hasSize(30_000);
        assertThat(rows.get(TpccTable.NEW_ORDER)).hasSize(9_000);
        assertThat(rows.get(TpccTable.ORDER_LINE).size()).isBetween(290_000, 310_000);
        // New orders are the last 900 of each district: 2,101 to 3,000.
        assertThat(rows.get(TpccTable.NEW_ORDER)).allSatisfy(row -> assertThat((int) row[0]).isBetween(2_101, 3_000));
        // The first 1,000 customers of a district carry every last name once.
        Set<Object> names = new HashSet<>();
        for (Object[] customer : rows.get(TpccTable.CUSTOMER)) {
            if ((int) customer[0] <= 1_000 && (int) customer[1] == 1) {
                names.add(customer[5]);
            }
        }
        assertThat(names).hasSize(1_000).contains("BARBARBAR", "EINGEINGEING", "PRICALLYOUGHT");
        assertThat(TpccRandom.lastName(371)).isEqualTo("PRICALLYOUGHT");
        long original = rows.get(TpccTable.ITEM).stream().filter(row -> ((String) row[4]).contains("ORIGINAL")).count();
        assertThat(original).isBetween(9_000L, 11_000L);
        long badCredit = rows.get(TpccTable.CUSTOMER).stream().filter(row -> row[13].equals("BC")).count();
        assertThat(badCredit).isBetween(2_500L, 3_500L);
    }

    @Test
    void ordersCarryAPermutationOfCustomersAndDeliveryStateByOrderId() {
        TpccScale scale = new TpccScale(2, 1_000, 300);
        Map<TpccTable, List<Object[]>> rows = generate(scale);
        Map<String, Set<Integer>> customersByDistrict = new HashMap<>();
        Map<String, Integer> linesByOrder = new HashMap<>();
        for (Object[] order : rows.get(TpccTable.ORDERS)) {
            int id = (int) order[0];
            customersByDistrict.computeIfAbsent(order[2] + "/" + order[1], ignored -> new HashSet<>()).add((int) order[3]);
            assertThat(order[5] == null).as("carrier of order %d", id).isEqualTo(id > scale.deliveredOrdersPerDistrict());
            assertThat((int) order[6]).isBetween(5, 15);
            linesByOrder.put(order[2] + "/" + order[1] + "/" + id, (int) order[6]);
        }
        assertThat(customersByDistrict).hasSize(20).allSatisfy((district, customers) -> assertThat(customers)
                .hasSize(300).allSatisfy(customer -> assertThat(customer).isBetween(1, 300)));
        Map<String, Integer> lineCounts = new HashMap<>();
        for (Object[] line : rows.get(TpccTable.ORDER_LINE)) {
            lineCounts.merge(line[2] + "/" + line[1] + "/" + line[0], 1, Integer::sum);
            boolean delivered = (int) line[0] <= scale.deliveredOrdersPerDistrict();
            assertThat(line[6] == null).isEqualTo(!delivered);
            assertThat(((BigDecimal) line[8]).signum() == 0).isEqualTo(delivered);
            assertThat((int) line[4]).isBetween(1, 1_000);
        }
        assertThat(lineCounts).isEqualTo(linesByOrder);
        // The year-to-date totals equal the initial history: 300 payments of 10.00 per district.
        assertThat(rows.get(TpccTable.DISTRICT)).allSatisfy(row -> assertThat((BigDecimal) row[9])
                .isEqualByComparingTo("3000.00"));
        assertThat(rows.get(TpccTable.WAREHOUSE)).allSatisfy(row -> assertThat((BigDecimal) row[8])
                .isEqualByComparingTo("30000.00"));
        assertThat(scale.describe()).contains("REDUCED");
        assertThat(TpccScale.spec(4).describe()).doesNotContain("REDUCED");
    }

    @Test
    void runConstantsKeepClause2161sDistanceFromTheLoad() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 1_000; i++) {
            int delta = Math.abs(NonUniformConstants.forRun(random).lastName() - NonUniformConstants.LOAD.lastName());
            assertThat(delta).isBetween(65, 119).isNotIn(96, 112);
        }
    }

    @Test
    void nonUniformValuesStayInRangeAndSkew() {
        TpccRandom random = new TpccRandom(new SplittableRandom(3));
        int[] counts = new int[3_001];
        for (int i = 0; i < 300_000; i++) {
            int id = random.nonUniform(1023, 1, 3_000, 259);
            assertThat(id).isBetween(1, 3_000);
            counts[id]++;
        }
        int max = Arrays.stream(counts).max().orElseThrow();
        assertThat(max).as("NURand is skewed: the most frequent id is far above the mean of 100").isGreaterThan(300);
    }

    @Test
    void theMixAddsUpToTheSpecificationsPercentages() {
        TpccRandom random = new TpccRandom(new SplittableRandom(5));
        Map<TransactionType, Integer> counts = new EnumMap<>(TransactionType.class);
        for (int i = 0; i < 100_000; i++) {
            counts.merge(TransactionType.choose(random), 1, Integer::sum);
        }
        assertThat(counts.get(TransactionType.NEW_ORDER)).isBetween(44_000, 46_000);
        assertThat(counts.get(TransactionType.PAYMENT)).isBetween(42_000, 44_000);
        assertThat(counts.get(TransactionType.DELIVERY)).isBetween(3_500, 4_500);
    }

    @Test
    void scalesBelowTheMinimumAreRefused() {
        assertThatThrownBy(() -> new TpccScale(0, 100_000, 3_000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TpccScale(1, 200_000, 3_000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TpccScale(1, 100_000, 10)).isInstanceOf(IllegalArgumentException.class);
    }
}
