package io.duetdb.testing.tpcc;

import java.math.BigDecimal;

/**
 * How large a TPC-C database is: its warehouses, and the items and customers per district of clause 4.3.3.1
 * (100,000 and 3,000 in the specification). A reduced scale keeps the specification's proportions: every
 * district has as many orders as customers, the last 30% of them undelivered (900 of 3,000), the first third of
 * the customers carry every last name once (1,000 of 3,000), and the year-to-date totals equal the initial
 * history's (30,000.00 per district of 3,000 customers).
 */
public record TpccScale(int warehouses, int items, int customersPerDistrict) {
    public static final int DISTRICTS_PER_WAREHOUSE = 10;
    public static final int SPEC_ITEMS = 100_000;
    public static final int SPEC_CUSTOMERS_PER_DISTRICT = 3_000;
    /** C_LAST's syllable numbers run from 0 to 999 (clause 4.3.2.3). */
    static final int SPEC_LAST_NAMES = 1_000;
    /** The initial payment of every customer, in its history row (H_AMOUNT = 10.00). */
    static final BigDecimal INITIAL_PAYMENT = new BigDecimal("10.00");

    public TpccScale {
        if (warehouses < 1) {
            throw new IllegalArgumentException("need at least one warehouse");
        }
        if (items < 100 || items > SPEC_ITEMS) {
            throw new IllegalArgumentException("items must be from 100 to " + SPEC_ITEMS);
        }
        if (customersPerDistrict < 30 || customersPerDistrict > SPEC_CUSTOMERS_PER_DISTRICT) {
            throw new IllegalArgumentException("customers per district must be from 30 to "
                    + SPEC_CUSTOMERS_PER_DISTRICT);
        }
    }

    /** The specification's population for {@code warehouses} warehouses. */
    public static TpccScale spec(int warehouses) {
        return new TpccScale(warehouses, SPEC_ITEMS, SPEC_CUSTOMERS_PER_DISTRICT);
    }

    /** Whether this is the specification's population (clause 4.3.3.1) rather than a reduced one. */
    public boolean isSpec() {
        return items == SPEC_ITEMS && customersPerDistrict == SPEC_CUSTOMERS_PER_DISTRICT;
    }

    /** Orders per district in the initial population: one per customer. */
    public int ordersPerDistrict() {
        return customersPerDistrict;
    }

    /** Undelivered orders per district in the initial population (900 of 3,000). */
    public int newOrdersPerDistrict() {
        return customersPerDistrict * 3 / 10;
    }

    /** Delivered orders per district in the initial population (2,100 of 3,000): O_IDs below this plus one. */
    public int deliveredOrdersPerDistrict() {
        return ordersPerDistrict() - newOrdersPerDistrict();
    }

    /** How many distinct last names the customers have: 1,000 at 3,000 customers per district. */
    public int lastNames() {
        return Math.min(SPEC_LAST_NAMES, customersPerDistrict / 3);
    }

    /** D_YTD at load: the sum of the district's initial history (30,000.00). */
    public BigDecimal initialDistrictYtd() {
        return INITIAL_PAYMENT.multiply(BigDecimal.valueOf(customersPerDistrict));
    }

    /** W_YTD at load: the sum of the warehouse's initial history (300,000.00). */
    public BigDecimal initialWarehouseYtd() {
        return initialDistrictYtd().multiply(BigDecimal.valueOf(DISTRICTS_PER_WAREHOUSE));
    }

    /** Approximate rows of the whole initial database (ten order lines per order on average). */
    public long approximateRows() {
        long districts = (long) warehouses * DISTRICTS_PER_WAREHOUSE;
        return items + warehouses + districts + (long) warehouses * items
                + districts * (2L * customersPerDistrict + ordersPerDistrict() * 11L + newOrdersPerDistrict());
    }

    /** One line saying what is loaded, with REDUCED in capitals when it is not the specification's population. */
    public String describe() {
        return String.format("%d warehouse(s), %,d items, %,d customers per district: %s", warehouses, items,
                customersPerDistrict, isSpec() ? "the TPC-C specification's population (clause 4.3.3.1)"
                        : "REDUCED population (not the specification's 100,000 items and 3,000 customers per district)");
    }
}
