package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

/**
 * What a terminal's transactions draw their inputs from: the scale, the run's NURand constants, the terminal's
 * home warehouse and its Stock-Level district (fixed per terminal, clause 2.8.1), and its random stream.
 */
record TerminalContext(TpccScale scale, NonUniformConstants constants, int warehouse, int district,
        TpccRandom random) {
    TerminalContext {
        requireNonNull(scale, "scale is null");
        requireNonNull(constants, "constants is null");
        requireNonNull(random, "random is null");
    }

    int randomDistrict() {
        return random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
    }

    /** C_ID by NURand(1023, 1, 3000). */
    int randomCustomerId() {
        return random.nonUniform(1023, 1, scale.customersPerDistrict(), constants.customerId());
    }

    /** OL_I_ID by NURand(8191, 1, 100000). */
    int randomItemId() {
        return random.nonUniform(8191, 1, scale.items(), constants.itemId());
    }

    /** C_LAST by NURand(255, 0, 999), with the run's C. */
    String randomLastName() {
        return TpccRandom.lastName(random.nonUniform(255, 0, scale.lastNames() - 1, constants.lastName()));
    }

    /** A warehouse other than the home warehouse; only called when there are several. */
    int otherWarehouse() {
        int other = random.uniform(1, scale.warehouses() - 1);
        return other >= warehouse ? other + 1 : other;
    }
}
