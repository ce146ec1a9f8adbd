package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Order-Status (clause 2.6), read-only: a customer of the home warehouse by last name (60%) or id, the
 * customer's latest order through the (o_w_id, o_d_id, o_c_id, o_id) index, and that order's lines.
 */
final class OrderStatus implements TpccTransaction<OrderStatus.Input> {
    /** The terminal's input; {@code customerId} is 0 when the customer is chosen by {@code lastName}. */
    record Input(int district, int customerId, String lastName) {
    }

    private static final String CUSTOMER_BY_NAME = "SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ?"
            + " AND c_last = ? ORDER BY c_first";
    private static final String CUSTOMER = "SELECT c_balance, c_first, c_middle, c_last FROM customer"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    private static final String LAST_ORDER = "SELECT o_id, o_entry_d, o_carrier_id FROM orders"
            + " WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1";
    private static final String LINES = "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d"
            + " FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?";

    private final PreparedStatements statements;
    private final TerminalContext context;

    OrderStatus(PreparedStatements statements, TerminalContext context) {
        this.statements = requireNonNull(statements, "statements is null");
        this.context = requireNonNull(context, "context is null");
    }

    @Override
    public Input input() {
        boolean byName = context.random().percent(60);
        return new Input(context.randomDistrict(), byName ? 0 : context.randomCustomerId(),
                byName ? context.randomLastName() : null);
    }

    @Override
    public Outcome execute(Input input) throws SQLException {
        int warehouse = context.warehouse();
        int customer = input.customerId() != 0 ? input.customerId() : CustomerByName.middle(
                statements.bind(CUSTOMER_BY_NAME, warehouse, input.district(), input.lastName()), "customer by name");
        try (ResultSet result = statements.bind(CUSTOMER, warehouse, input.district(), customer).executeQuery()) {
            if (!result.next()) {
                throw new TpccAnomaly("customer missing", warehouse + "/" + input.district() + "/" + customer);
            }
        }
        int order;
        try (ResultSet result = statements.bind(LAST_ORDER, warehouse, input.district(), customer).executeQuery()) {
            if (!result.next()) {
                // Every customer has an order in the initial population, and orders are never deleted.
                throw new TpccAnomaly("customer's order missing", warehouse + "/" + input.district() + "/" + customer);
            }
            order = result.getInt(1);
        }
        int lines = 0;
        try (ResultSet result = statements.bind(LINES, warehouse, input.district(), order).executeQuery()) {
            while (result.next()) {
                lines++;
            }
        }
        if (lines < 5) {
            throw new TpccAnomaly("order lines missing", warehouse + "/" + input.district() + "/" + order);
        }
        statements.connection().commit();
        return Outcome.COMMITTED;
    }
}
