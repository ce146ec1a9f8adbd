package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.sql.SQLException;

/**
 * A transaction saw what a correct database cannot show it (a customer, order or stock row that must exist is
 * missing, a new order another Delivery already took): counted as an error under its {@code kind}, never retried.
 */
final class TpccAnomaly extends SQLException {
    private static final long serialVersionUID = 1L;
    private final String kind;

    TpccAnomaly(String kind, String detail) {
        super(kind + ": " + detail, "HY000", 0);
        this.kind = requireNonNull(kind, "kind is null");
    }

    String kind() {
        return kind;
    }
}
