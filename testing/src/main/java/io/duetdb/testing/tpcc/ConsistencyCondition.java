package io.duetdb.testing.tpcc;

import java.util.List;

/**
 * TPC-C's consistency conditions (clause 3.3.2.1 to 3.3.2.12) as SQL queries over one warehouse: each query
 * returns the rows that break its condition, with every parameter the warehouse's id, so a condition holds when
 * it returns none.
 *
 * <p>Condition 11 is worded for the initial database: count(ORDER) - count(NEW-ORDER) = 2100 per district. Each
 * Delivery removes one new order and adds one to the customer's C_DELIVERY_CNT (0 at load), so the query checks
 * the form that holds after any run: the difference is 2100 plus the district's sum of C_DELIVERY_CNT.
 */
public record ConsistencyCondition(String clause, String description, String sql) {
    /** The twelve conditions for a database loaded at {@code scale}. */
    public static List<ConsistencyCondition> all(TpccScale scale) {
        String delivered = "SELECT o_d_id, o_c_id, SUM(ol_amount) AS amount FROM orders JOIN order_line"
                + " ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id"
                + " WHERE o_w_id = ? AND ol_delivery_d IS NOT NULL GROUP BY o_d_id, o_c_id";
        return List.of(
                new ConsistencyCondition("3.3.2.1", "W_YTD = sum(D_YTD)",
                        "SELECT w_id, w_ytd, SUM(d_ytd) FROM warehouse JOIN district ON d_w_id = w_id"
                        + " WHERE w_id = ? GROUP BY w_id HAVING w_ytd <> SUM(d_ytd)"),
                new ConsistencyCondition("3.3.2.2", "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)",
                        "SELECT d_id, d_next_o_id, o.max_o_id, no.max_no_o_id FROM district"
                        + " JOIN (SELECT o_d_id, MAX(o_id) AS max_o_id FROM orders WHERE o_w_id = ? GROUP BY o_d_id) o"
                        + " ON o.o_d_id = d_id"
                        + " LEFT JOIN (SELECT no_d_id, MAX(no_o_id) AS max_no_o_id FROM new_order WHERE no_w_id = ?"
                        + " GROUP BY no_d_id) no ON no.no_d_id = d_id"
                        + " WHERE d_w_id = ? AND (d_next_o_id - 1 <> o.max_o_id OR d_next_o_id - 1 <> no.max_no_o_id)"),
                new ConsistencyCondition("3.3.2.3", "max(NO_O_ID) - min(NO_O_ID) + 1 = rows in NEW-ORDER",
                        "SELECT no_d_id, MIN(no_o_id), MAX(no_o_id), COUNT(*) FROM new_order WHERE no_w_id = ?"
                        + " GROUP BY no_d_id HAVING MAX(no_o_id) - MIN(no_o_id) + 1 <> COUNT(*)"),
                new ConsistencyCondition("3.3.2.4", "sum(O_OL_CNT) = rows in ORDER-LINE",
                        "SELECT o.o_d_id, o.ordered_lines, ol.line_rows"
                        + " FROM (SELECT o_d_id, SUM(o_ol_cnt) AS ordered_lines FROM orders WHERE o_w_id = ?"
                        + " GROUP BY o_d_id) o"
                        + " LEFT JOIN (SELECT ol_d_id, COUNT(*) AS line_rows FROM order_line WHERE ol_w_id = ?"
                        + " GROUP BY ol_d_id) ol ON ol.ol_d_id = o.o_d_id"
                        + " WHERE ol.line_rows IS NULL OR o.ordered_lines <> ol.line_rows"),
                new ConsistencyCondition("3.3.2.5", "O_CARRIER_ID is null iff the order is in NEW-ORDER",
                        "SELECT o_d_id, o_id, o_carrier_id, no.no_o_id FROM orders"
                        + " LEFT JOIN new_order no ON no.no_w_id = o_w_id AND no.no_d_id = o_d_id AND no.no_o_id = o_id"
                        + " WHERE o_w_id = ? AND ((o_carrier_id IS NULL AND no.no_o_id IS NULL)"
                        + " OR (o_carrier_id IS NOT NULL AND no.no_o_id IS NOT NULL))"),
                new ConsistencyCondition("3.3.2.6", "O_OL_CNT = the order's rows in ORDER-LINE",
                        "SELECT o_d_id, o_id, o_ol_cnt, COUNT(ol_o_id) FROM orders"
                        + " LEFT JOIN order_line ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id"
                        + " WHERE o_w_id = ? GROUP BY o_w_id, o_d_id, o_id HAVING o_ol_cnt <> COUNT(ol_o_id)"),
                new ConsistencyCondition("3.3.2.7", "OL_DELIVERY_D is null iff O_CARRIER_ID is null",
                        "SELECT ol_d_id, ol_o_id, ol_number, ol_delivery_d, o_carrier_id FROM order_line"
                        + " JOIN orders ON o_w_id = ol_w_id AND o_d_id = ol_d_id AND o_id = ol_o_id"
                        + " WHERE ol_w_id = ? AND ((ol_delivery_d IS NULL AND o_carrier_id IS NOT NULL)"
                        + " OR (ol_delivery_d IS NOT NULL AND o_carrier_id IS NULL))"),
                new ConsistencyCondition("3.3.2.8", "W_YTD = sum(H_AMOUNT)",
                        "SELECT w_id, w_ytd, SUM(h_amount) FROM warehouse JOIN history ON h_w_id = w_id"
                        + " WHERE w_id = ? GROUP BY w_id HAVING w_ytd <> SUM(h_amount)"),
                new ConsistencyCondition("3.3.2.9", "D_YTD = sum(H_AMOUNT)",
                        "SELECT d_id, d_ytd, SUM(h_amount) FROM district"
                        + " JOIN history ON h_w_id = d_w_id AND h_d_id = d_id"
                        + " WHERE d_w_id = ? GROUP BY d_w_id, d_id HAVING d_ytd <> SUM(h_amount)"),
                new ConsistencyCondition("3.3.2.10", "C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT)",
                        "SELECT c_d_id, c_id, c_balance, delivered.amount, paid.amount FROM customer"
                        + " LEFT JOIN (" + delivered + ") delivered ON delivered.o_d_id = c_d_id"
                        + " AND delivered.o_c_id = c_id"
                        + " LEFT JOIN (SELECT h_c_d_id, h_c_id, SUM(h_amount) AS amount FROM history"
                        + " WHERE h_c_w_id = ? GROUP BY h_c_d_id, h_c_id) paid ON paid.h_c_d_id = c_d_id"
                        + " AND paid.h_c_id = c_id"
                        + " WHERE c_w_id = ? AND c_balance <> COALESCE(delivered.amount, 0) - COALESCE(paid.amount, 0)"),
                new ConsistencyCondition("3.3.2.11", String.format("count(ORDER) - count(NEW-ORDER) = %d"
                        + " + sum(C_DELIVERY_CNT)", scale.deliveredOrdersPerDistrict()),
                        "SELECT d_id, o.order_count, no.new_order_count, c.delivery_count FROM district"
                        + " JOIN (SELECT o_d_id, COUNT(*) AS order_count FROM orders WHERE o_w_id = ?"
                        + " GROUP BY o_d_id) o ON o.o_d_id = d_id"
                        + " LEFT JOIN (SELECT no_d_id, COUNT(*) AS new_order_count FROM new_order WHERE no_w_id = ?"
                        + " GROUP BY no_d_id) no ON no.no_d_id = d_id"
                        + " JOIN (SELECT c_d_id, SUM(c_delivery_cnt) AS delivery_count FROM customer WHERE c_w_id = ?"
                        + " GROUP BY c_d_id) c ON c.c_d_id = d_id"
                        + " WHERE d_w_id = ? AND o.order_count - COALESCE(no.new_order_count, 0)"
                        + " <> " + scale.deliveredOrdersPerDistrict() + " + c.delivery_count"),
                new ConsistencyCondition("3.3.2.12", "C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT)",
                        "SELECT c_d_id, c_id, c_balance + c_ytd_payment, delivered.amount FROM customer"
                        + " LEFT JOIN (" + delivered + ") delivered ON delivered.o_d_id = c_d_id"
                        + " AND delivered.o_c_id = c_id"
                        + " WHERE c_w_id = ? AND c_balance + c_ytd_payment <> COALESCE(delivered.amount, 0)"));
    }

    /** How many parameters the query takes, each bound to the warehouse. */
    int parameters() {
        return (int) sql.chars().filter(c -> c == '?').count();
    }
}
