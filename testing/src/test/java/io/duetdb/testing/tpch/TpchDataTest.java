package io.duetdb.testing.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class TpchDataTest {
    private static final TpchData DATA = new TpchData(0.01);

    private static final Map<TpchTable, List<Object[]>> CACHE = new java.util.EnumMap<>(TpchTable.class);

    private static synchronized List<Object[]> rows(TpchData data, TpchTable table) {
        if (data == DATA) {
            return CACHE.computeIfAbsent(table, t -> generate(data, t));
        }
        return generate(data, table);
    }

    private static List<Object[]> generate(TpchData data, TpchTable table) {
        List<Object[]> rows = new ArrayList<>();
        data.generate(table, rows::add);
        return rows;
    }

    @Test
    void cardinalitiesFollowTheScaleFactor() {
        assertThat(rows(DATA, TpchTable.REGION)).hasSize(5);
        assertThat(rows(DATA, TpchTable.NATION)).hasSize(25);
        assertThat(rows(DATA, TpchTable.PART)).hasSize(2_000);
        assertThat(rows(DATA, TpchTable.SUPPLIER)).hasSize(100);
        assertThat(rows(DATA, TpchTable.PARTSUPP)).hasSize(8_000);
        assertThat(rows(DATA, TpchTable.CUSTOMER)).hasSize(1_500);
        assertThat(rows(DATA, TpchTable.ORDERS)).hasSize(15_000);
        assertThat(rows(DATA, TpchTable.LINEITEM).size()).isBetween(57_000, 63_000);
        assertThat(new TpchData(0.001).units(TpchTable.SUPPLIER)).isEqualTo(10);
        assertThat(new TpchData(1).units(TpchTable.ORDERS)).isEqualTo(1_500_000);
    }

    @Test
    void theSameScaleFactorGivesTheSameRowsInAnyChunking() {
        List<Object[]> whole = rows(DATA, TpchTable.LINEITEM);
        List<Object[]> chunked = new ArrayList<>();
        TpchData again = new TpchData(0.01);
        for (long from = 0; from < again.units(TpchTable.LINEITEM); from += 777) {
            again.generate(TpchTable.LINEITEM, from, Math.min(again.units(TpchTable.LINEITEM), from + 777), chunked::add);
        }
        assertThat(chunked).hasSameSizeAs(whole);
        for (int i = 0; i < whole.size(); i++) {
            assertThat(chunked.get(i)).containsExactly(whole.get(i));
        }
    }

    @Test
    void keysAreUniqueAndReferencesResolve() {
        Set<List<Object>> partSupps = new HashSet<>();
        for (TpchData data : List.of(DATA, new TpchData(0.001))) {
            partSupps.clear();
            for (Object[] row : rows(data, TpchTable.PARTSUPP)) {
                assertThat(partSupps.add(List.of(row[0], row[1]))).as("partsupp key %s, %s", row[0], row[1]).isTrue();
            }
            for (Object[] line : rows(data, TpchTable.LINEITEM)) {
                assertThat(partSupps.contains(List.of(line[1], line[2]))).as("line %s's part and supplier", line[0]).isTrue();
            }
        }
        Set<Object> orderKeys = new HashSet<>();
        for (Object[] order : rows(DATA, TpchTable.ORDERS)) {
            assertThat(orderKeys.add(order[0])).isTrue();
            assertThat((Integer) order[1] % 3).isNotZero();
            assertThat((Integer) order[1]).isBetween(1, 1_500);
        }
        for (Object[] line : rows(DATA, TpchTable.LINEITEM)) {
            assertThat(orderKeys.contains(line[0])).as("line of order %s", line[0]).isTrue();
        }
    }

    @Test
    void ordersAgreeWithTheirLines() {
        Map<Object, List<Object[]>> lines = new HashMap<>();
        for (Object[] line : rows(DATA, TpchTable.LINEITEM)) {
            lines.computeIfAbsent(line[0], k -> new ArrayList<>()).add(line);
        }
        for (Object[] order : rows(DATA, TpchTable.ORDERS)) {
            List<Object[]> own = lines.get(order[0]);
            long shipped = own.stream().filter(l -> l[9].equals("F")).count();
            String status = shipped == own.size() ? "F" : shipped == 0 ? "O" : "P";
            assertThat(order[2]).isEqualTo(status);
            BigDecimal total = BigDecimal.ZERO;
            for (Object[] line : own) {
                BigDecimal extended = (BigDecimal) line[5];
                assertThat(extended).isEqualTo(((BigDecimal) line[4]).multiply(
                        BigDecimal.valueOf(TpchData.retailPriceCents((Integer) line[1]), 2)).setScale(2));
                LocalDate orderDate = (LocalDate) order[4];
                assertThat((LocalDate) line[10]).isAfter(orderDate).isBeforeOrEqualTo(orderDate.plusDays(121));
                assertThat((LocalDate) line[12]).isAfter((LocalDate) line[10]);
                total = total.add(extended.multiply(BigDecimal.ONE.subtract((BigDecimal) line[6]))
                        .multiply(BigDecimal.ONE.add((BigDecimal) line[7])));
            }
            assertThat(((BigDecimal) order[3]).subtract(total).abs()).isLessThanOrEqualTo(new BigDecimal("0.02").multiply(BigDecimal.valueOf(own.size()))); // dbgen truncates per line
        }
    }

    @Test
    void textHoldsWhatTheQueriesLookFor() {
        assertThat(TpchData.COLORS).hasSize(92).doesNotHaveDuplicates();
        long special = rows(DATA, TpchTable.ORDERS).stream()
                .filter(o -> ((String) o[8]).matches(".*special.*requests.*")).count();
        assertThat(special).isBetween(15L, 1_500L);
        assertThat(rows(DATA, TpchTable.SUPPLIER)).anyMatch(s -> ((String) s[6]).matches(".*Customer.*Complaints.*"));
        assertThat(rows(DATA, TpchTable.SUPPLIER)).anyMatch(s -> ((String) s[6]).matches(".*Customer.*Recommends.*"));
        List<Object[]> parts = rows(DATA, TpchTable.PART);
        assertThat(parts).anyMatch(p -> ((String) p[1]).startsWith("forest"));
        assertThat(parts).anyMatch(p -> ((String) p[1]).contains("green"));
        assertThat(parts).anyMatch(p -> ((String) p[4]).startsWith("PROMO"));
        assertThat(parts).anyMatch(p -> ((String) p[4]).endsWith("BRASS"));
        assertThat(parts).anyMatch(p -> p[4].equals("ECONOMY ANODIZED STEEL"));
        assertThat(parts).anyMatch(p -> p[3].equals("Brand#23") && p[6].equals("MED BOX"));
        for (Object[] nation : rows(DATA, TpchTable.NATION)) {
            assertThat((String) nation[3]).hasSizeBetween(31, 114);
        }
        assertThat(rows(DATA, TpchTable.NATION).get(20)).startsWith(20, "SAUDI ARABIA", 4);
        assertThat(rows(DATA, TpchTable.CUSTOMER).get(0)[4]).asString().matches("\\d\\d-\\d{3}-\\d{3}-\\d{4}");
    }

    @Test
    void tablesHaveTheSpecificationsColumns() {
        assertThat(TpchTable.LINEITEM.createTableSql()).startsWith("CREATE TABLE lineitem (l_orderkey INTEGER NOT NULL,")
                .contains("l_quantity DECIMAL(15,2) NOT NULL", "l_shipdate DATE NOT NULL", "l_shipmode CHAR(10) NOT NULL",
                        "l_comment VARCHAR(44) NOT NULL")
                .endsWith("PRIMARY KEY (l_orderkey, l_linenumber))");
        assertThat(TpchTable.PARTSUPP.createTableSql()).endsWith("PRIMARY KEY (ps_partkey, ps_suppkey))");
        int columns = 0;
        for (TpchTable table : TpchTable.values()) {
            columns += table.columns().size();
        }
        assertThat(columns).isEqualTo(61);
    }

    @Test
    void queriesAreReadWithTheirParameters() {
        assertThat(TpchQueries.sql(11, 0.01)).contains("* 0.01").doesNotContain("${").doesNotContain("--");
        assertThat(TpchQueries.sql(11, 1)).contains("* 0.0001");
        assertThat(TpchQueries.ordered(3)).isTrue();
        assertThat(TpchQueries.ordered(1)).isFalse();
        assertThat(TpchQueries.parseSelection("1-3,q7, 22")).containsExactly(1, 2, 3, 7, 22);
        for (int q = 1; q <= TpchQueries.COUNT; q++) {
            assertThat(TpchQueries.sql(q, 0.01)).startsWith(q == 15 ? "with" : "select").doesNotEndWith(";");
        }
    }
}
