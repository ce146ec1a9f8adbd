package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Stock-Level (clause 2.8), read-only: of the items in the terminal's district's last 20 orders, how many
 * distinct ones have stock below a threshold of 10 to 20 — one join of ORDER-LINE and STOCK.
 */
final class StockLevel implements TpccTransaction<StockLevel.Input> {
    /** The terminal's input: the threshold. */
    record Input(int threshold) {
    }

    private static final String NEXT_ORDER = "SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?";
    private static final String LOW_STOCK = "SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock"
            + " WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? AND s_w_id = ? AND s_i_id = ol_i_id"
            + " AND s_quantity < ?";

    private final PreparedStatements statements;
    private final TerminalContext context;

    StockLevel(PreparedStatements statements, TerminalContext context) {
        this.statements = requireNonNull(statements, "statements is null");
        this.context = requireNonNull(context, "context is null");
    }

    @Override
    public Input input() {
        return new Input(context.random().uniform(10, 20));
    }

    @Override
    public Outcome execute(Input input) throws SQLException {
        int warehouse = context.warehouse();
        int district = context.district();
        int nextOrder;
        try (ResultSet result = statements.bind(NEXT_ORDER, warehouse, district).executeQuery()) {
            if (!result.next()) {
                throw new TpccAnomaly("district missing", warehouse + "/" + district);
            }
            nextOrder = result.getInt(1);
        }
        try (ResultSet result = statements.bind(LOW_STOCK, warehouse, district, nextOrder, nextOrder - 20, warehouse,
                input.threshold()).executeQuery()) {
            result.next();
            result.getLong(1);
        }
        statements.connection().commit();
        return Outcome.COMMITTED;
    }
}
