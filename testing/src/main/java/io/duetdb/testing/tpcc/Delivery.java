package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;

/**
 * Delivery (clause 2.7), run directly rather than queued, as drivers do: in one transaction, for each of the home
 * warehouse's ten districts, the oldest new order (locked with {@code ORDER BY no_o_id LIMIT 1 FOR UPDATE}) is
 * deleted, its order gets the carrier, its lines the delivery date, and its customer the lines' total and one
 * more delivery. A district without new orders is skipped.
 */
final class Delivery implements TpccTransaction<Delivery.Input> {
    /** The terminal's input: the carrier. */
    record Input(int carrier) {
    }

    private static final String OLDEST_NEW_ORDER = "SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ?"
            + " ORDER BY no_o_id LIMIT 1 FOR UPDATE";
    private static final String DELETE_NEW_ORDER = "DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ?"
            + " AND no_o_id = ?";
    private static final String ORDER_CUSTOMER = "SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ?"
            + " AND o_id = ?";
    private static final String ORDER_CARRIER = "UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ?"
            + " AND o_id = ?";
    private static final String LINES_DELIVERED = "UPDATE order_line SET ol_delivery_d = ? WHERE ol_w_id = ?"
            + " AND ol_d_id = ? AND ol_o_id = ?";
    private static final String LINES_AMOUNT = "SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = ?"
            + " AND ol_d_id = ? AND ol_o_id = ?";
    private static final String CUSTOMER_UPDATE = "UPDATE customer SET c_balance = c_balance + ?,"
            + " c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";

    private final PreparedStatements statements;
    private final TerminalContext context;
    private int skippedDistricts;

    Delivery(PreparedStatements statements, TerminalContext context) {
        this.statements = requireNonNull(statements, "statements is null");
        this.context = requireNonNull(context, "context is null");
    }

    /** The districts the last run found without a new order to deliver. */
    int skippedDistricts() {
        return skippedDistricts;
    }

    @Override
    public Input input() {
        return new Input(context.random().uniform(1, 10));
    }

    @Override
    public Outcome execute(Input input) throws SQLException {
        int warehouse = context.warehouse();
        LocalDateTime now = LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        skippedDistricts = 0;
        for (int district = 1; district <= TpccScale.DISTRICTS_PER_WAREHOUSE; district++) {
            int order;
            try (ResultSet result = statements.bind(OLDEST_NEW_ORDER, warehouse, district).executeQuery()) {
                if (!result.next()) {
                    skippedDistricts++;
                    continue;
                }
                order = result.getInt(1);
            }
            String where = warehouse + "/" + district + "/" + order;
            if (statements.bind(DELETE_NEW_ORDER, warehouse, district, order).executeUpdate() != 1) {
                throw new TpccAnomaly("new order delivered twice", where);
            }
            int customer;
            try (ResultSet result = statements.bind(ORDER_CUSTOMER, warehouse, district, order).executeQuery()) {
                if (!result.next()) {
                    throw new TpccAnomaly("new order's order missing", where);
                }
                customer = result.getInt(1);
            }
            statements.bind(ORDER_CARRIER, input.carrier(), warehouse, district, order).executeUpdate();
            statements.bind(LINES_DELIVERED, now, warehouse, district, order).executeUpdate();
            BigDecimal amount;
            try (ResultSet result = statements.bind(LINES_AMOUNT, warehouse, district, order).executeQuery()) {
                result.next();
                amount = result.getBigDecimal(1);
            }
            if (amount == null) {
                throw new TpccAnomaly("order lines missing", where);
            }
            if (statements.bind(CUSTOMER_UPDATE, amount, warehouse, district, customer).executeUpdate() != 1) {
                throw new TpccAnomaly("customer missing", warehouse + "/" + district + "/" + customer);
            }
        }
        statements.connection().commit();
        return Outcome.COMMITTED;
    }
}
