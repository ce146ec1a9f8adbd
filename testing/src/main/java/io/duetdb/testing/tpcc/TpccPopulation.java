package io.duetdb.testing.tpcc;

import static io.duetdb.testing.tpcc.TpccScale.DISTRICTS_PER_WAREHOUSE;
import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

import io.duetdb.testing.reference.UnitRandom;

/**
 * The initial database of clause 4.3.3.1, in units that can be generated alone and in parallel: a range of
 * items, a warehouse with its districts, a range of a warehouse's stock, a district's customers with their
 * history rows, and a district's orders with their order lines and new orders. Each unit draws from its own
 * random stream, so the same scale always gives the same rows apart from the load's date and time, which is
 * C_SINCE, H_DATE, O_ENTRY_D and the delivered lines' OL_DELIVERY_D (the specification's "current date/time").
 */
public final class TpccPopulation {
    static final long SEED = 0x7CC_2011L;
    private static final int ITEMS_PER_UNIT = 10_000;
    private static final int STOCK_PER_UNIT = 10_000;
    private static final BigDecimal CREDIT_LIMIT = new BigDecimal("50000.00");
    private static final BigDecimal INITIAL_BALANCE = new BigDecimal("-10.00");
    private static final BigDecimal ZERO_AMOUNT = new BigDecimal("0.00");

    /** What a unit generates. */
    public enum Kind { ITEMS, WAREHOUSE, STOCK, CUSTOMERS, ORDERS }

    /** One unit: its kind, its warehouse and district (0 where none) and a range [from, to] of ids. */
    public record Unit(Kind kind, int warehouse, int district, int from, int to) {
        public Unit {
            requireNonNull(kind, "kind is null");
        }

        private long stream() {
            return ((long) warehouse * (DISTRICTS_PER_WAREHOUSE + 1) + district) * 1_000_000L + from;
        }
    }

    /** Receives generated rows, values in the table's column order. */
    @FunctionalInterface
    public interface RowSink {
        void row(TpccTable table, Object[] values);
    }

    private final TpccScale scale;
    private final LocalDateTime loadTime;

    public TpccPopulation(TpccScale scale, LocalDateTime loadTime) {
        this.scale = requireNonNull(scale, "scale is null");
        this.loadTime = requireNonNull(loadTime, "loadTime is null");
    }

    /** Every unit, items first, then each warehouse's in turn. */
    public List<Unit> units() {
        List<Unit> units = new ArrayList<>();
        for (int from = 1; from <= scale.items(); from += ITEMS_PER_UNIT) {
            units.add(new Unit(Kind.ITEMS, 0, 0, from, Math.min(scale.items(), from + ITEMS_PER_UNIT - 1)));
        }
        for (int warehouse = 1; warehouse <= scale.warehouses(); warehouse++) {
            units.add(new Unit(Kind.WAREHOUSE, warehouse, 0, warehouse, warehouse));
            for (int district = 1; district <= DISTRICTS_PER_WAREHOUSE; district++) {
                units.add(new Unit(Kind.ORDERS, warehouse, district, 1, scale.ordersPerDistrict()));
                units.add(new Unit(Kind.CUSTOMERS, warehouse, district, 1, scale.customersPerDistrict()));
            }
            for (int from = 1; from <= scale.items(); from += STOCK_PER_UNIT) {
                units.add(new Unit(Kind.STOCK, warehouse, 0, from, Math.min(scale.items(), from + STOCK_PER_UNIT - 1)));
            }
        }
        return units;
    }

    /** The rows of one unit. */
    public void generate(Unit unit, RowSink sink) {
        TpccRandom random = new TpccRandom(UnitRandom.of(SEED, unit.kind().ordinal(), unit.stream(), 0));
        switch (unit.kind()) {
            case ITEMS -> {
                for (int id = unit.from(); id <= unit.to(); id++) {
                    sink.row(TpccTable.ITEM, item(random, id));
                }
            }
            case WAREHOUSE -> {
                sink.row(TpccTable.WAREHOUSE, warehouse(random, unit.warehouse()));
                for (int district = 1; district <= DISTRICTS_PER_WAREHOUSE; district++) {
                    sink.row(TpccTable.DISTRICT, district(random, unit.warehouse(), district));
                }
            }
            case STOCK -> {
                for (int id = unit.from(); id <= unit.to(); id++) {
                    sink.row(TpccTable.STOCK, stock(random, unit.warehouse(), id));
                }
            }
            case CUSTOMERS -> customers(random, unit, sink);
            case ORDERS -> orders(random, unit, sink);
            default -> throw new IllegalArgumentException(unit.kind().name());
        }
    }

    private static Object[] item(TpccRandom random, int id) {
        return new Object[] {id, random.uniform(1, 10_000), random.alphanumeric(14, 24), random.money(100, 10_000),
            random.data()};
    }

    private Object[] warehouse(TpccRandom random, int id) {
        return new Object[] {id, random.alphanumeric(6, 10), random.alphanumeric(10, 20), random.alphanumeric(10, 20),
            random.alphanumeric(10, 20), state(random), random.zip(), random.fraction(2_000),
            scale.initialWarehouseYtd()};
    }

    private Object[] district(TpccRandom random, int warehouse, int id) {
        return new Object[] {id, warehouse, random.alphanumeric(6, 10), random.alphanumeric(10, 20),
            random.alphanumeric(10, 20), random.alphanumeric(10, 20), state(random), random.zip(),
            random.fraction(2_000), scale.initialDistrictYtd(), scale.ordersPerDistrict() + 1};
    }

    private static Object[] stock(TpccRandom random, int warehouse, int item) {
        Object[] row = new Object[17];
        row[0] = item;
        row[1] = warehouse;
        row[2] = random.uniform(10, 100);
        for (int district = 0; district < DISTRICTS_PER_WAREHOUSE; district++) {
            row[3 + district] = random.alphanumeric(24, 24);
        }
        row[13] = 0;
        row[14] = 0;
        row[15] = 0;
        row[16] = random.data();
        return row;
    }

    /**
     * The district's customers and one history row each. The first third carry the last names 0 to 999 in turn
     * (all 1,000 of them at 3,000 customers), the others NURand(255, 0, 999) with the load's C.
     */
    private void customers(TpccRandom random, Unit unit, RowSink sink) {
        int lastNames = scale.lastNames();
        for (int id = unit.from(); id <= unit.to(); id++) {
            int lastName = id <= lastNames ? id - 1
                    : random.nonUniform(255, 0, lastNames - 1, NonUniformConstants.LOAD.lastName());
            sink.row(TpccTable.CUSTOMER, new Object[] {id, unit.district(), unit.warehouse(),
                random.alphanumeric(8, 16), "OE", TpccRandom.lastName(lastName), random.alphanumeric(10, 20),
                random.alphanumeric(10, 20), random.alphanumeric(10, 20), state(random), random.zip(),
                random.numeric(16), loadTime, random.percent(10) ? "BC" : "GC", CREDIT_LIMIT,
                random.fraction(5_000), INITIAL_BALANCE, TpccScale.INITIAL_PAYMENT, 1, 0,
                random.alphanumeric(300, 500)});
        }
        for (int id = unit.from(); id <= unit.to(); id++) {
            sink.row(TpccTable.HISTORY, new Object[] {id, unit.district(), unit.warehouse(), unit.district(),
                unit.warehouse(), loadTime, TpccScale.INITIAL_PAYMENT, random.alphanumeric(12, 24)});
        }
    }

    /**
     * The district's orders, each for the next customer of a random permutation; the first 2,100 (70%) delivered
     * with a carrier, their lines delivered at the order's time with amount 0.00, the others undelivered with
     * random amounts and a NEW-ORDER row each.
     */
    private void orders(TpccRandom random, Unit unit, RowSink sink) {
        int[] customers = new int[scale.customersPerDistrict()];
        for (int i = 0; i < customers.length; i++) {
            customers[i] = i + 1;
        }
        random.shuffle(customers);
        int delivered = scale.deliveredOrdersPerDistrict();
        for (int id = unit.from(); id <= unit.to(); id++) {
            boolean isDelivered = id <= delivered;
            int lines = random.uniform(5, 15);
            sink.row(TpccTable.ORDERS, new Object[] {id, unit.district(), unit.warehouse(), customers[id - 1],
                loadTime, isDelivered ? random.uniform(1, 10) : null, lines, 1});
            for (int number = 1; number <= lines; number++) {
                sink.row(TpccTable.ORDER_LINE, new Object[] {id, unit.district(), unit.warehouse(), number,
                    random.uniform(1, scale.items()), unit.warehouse(), isDelivered ? loadTime : null, 5,
                    isDelivered ? ZERO_AMOUNT : random.money(1, 999_999), random.alphanumeric(24, 24)});
            }
            if (!isDelivered) {
                sink.row(TpccTable.NEW_ORDER, new Object[] {id, unit.district(), unit.warehouse()});
            }
        }
    }

    /** A state: two random letters. */
    private static String state(TpccRandom random) {
        return random.letters(2);
    }
}
