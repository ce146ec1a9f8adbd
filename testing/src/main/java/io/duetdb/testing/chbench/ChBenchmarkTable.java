package io.duetdb.testing.chbench;

import static io.duetdb.testing.reference.Column.chars;
import static io.duetdb.testing.reference.Column.dateTime;
import static io.duetdb.testing.reference.Column.decimal;
import static io.duetdb.testing.reference.Column.integer;
import static io.duetdb.testing.reference.Column.varchar;

import java.util.List;
import java.util.Locale;

import io.duetdb.testing.reference.Column;
import io.duetdb.testing.reference.Table;

/**
 * The twelve CH-benCHmark tables: TPC-C's nine with the columns and primary keys of its clause 1.3 (HISTORY has
 * none), and the supplier, nation and region tables CH-benCHmark adds from TPC-H with the {@code su_} prefix for
 * the supplier's columns. Timestamps are DATETIME; ORDERS.o_carrier_id and ORDER_LINE.ol_delivery_d hold NULL
 * while an order is undelivered.
 */
public enum ChBenchmarkTable implements Table {
    WAREHOUSE(List.of(
            integer("w_id"), varchar("w_name", 10), varchar("w_street_1", 20), varchar("w_street_2", 20),
            varchar("w_city", 20), chars("w_state", 2), chars("w_zip", 9), decimal("w_tax", 4, 4),
            decimal("w_ytd", 12, 2)),
            "w_id"),
    DISTRICT(List.of(
            integer("d_id"), integer("d_w_id"), varchar("d_name", 10), varchar("d_street_1", 20),
            varchar("d_street_2", 20), varchar("d_city", 20), chars("d_state", 2), chars("d_zip", 9),
            decimal("d_tax", 4, 4), decimal("d_ytd", 12, 2), integer("d_next_o_id")),
            "d_w_id, d_id"),
    CUSTOMER(List.of(
            integer("c_id"), integer("c_d_id"), integer("c_w_id"), varchar("c_first", 16), chars("c_middle", 2),
            varchar("c_last", 16), varchar("c_street_1", 20), varchar("c_street_2", 20), varchar("c_city", 20),
            chars("c_state", 2), chars("c_zip", 9), chars("c_phone", 16), dateTime("c_since"), chars("c_credit", 2),
            decimal("c_credit_lim", 12, 2), decimal("c_discount", 4, 4), decimal("c_balance", 12, 2),
            decimal("c_ytd_payment", 12, 2), integer("c_payment_cnt"), integer("c_delivery_cnt"),
            varchar("c_data", 500)),
            "c_w_id, c_d_id, c_id"),
    HISTORY(List.of(
            integer("h_c_id"), integer("h_c_d_id"), integer("h_c_w_id"), integer("h_d_id"), integer("h_w_id"),
            dateTime("h_date"), decimal("h_amount", 6, 2), varchar("h_data", 24)),
            ""),
    NEW_ORDER(List.of(
            integer("no_o_id"), integer("no_d_id"), integer("no_w_id")),
            "no_w_id, no_d_id, no_o_id"),
    ORDERS(List.of(
            integer("o_id"), integer("o_d_id"), integer("o_w_id"), integer("o_c_id"), dateTime("o_entry_d"),
            integer("o_carrier_id").orNull(), integer("o_ol_cnt"), integer("o_all_local")),
            "o_w_id, o_d_id, o_id"),
    ORDER_LINE(List.of(
            integer("ol_o_id"), integer("ol_d_id"), integer("ol_w_id"), integer("ol_number"), integer("ol_i_id"),
            integer("ol_supply_w_id"), dateTime("ol_delivery_d").orNull(), integer("ol_quantity"),
            decimal("ol_amount", 6, 2), chars("ol_dist_info", 24)),
            "ol_w_id, ol_d_id, ol_o_id, ol_number"),
    ITEM(List.of(
            integer("i_id"), integer("i_im_id"), varchar("i_name", 24), decimal("i_price", 5, 2),
            varchar("i_data", 50)),
            "i_id"),
    STOCK(List.of(
            integer("s_i_id"), integer("s_w_id"), integer("s_quantity"), chars("s_dist_01", 24),
            chars("s_dist_02", 24), chars("s_dist_03", 24), chars("s_dist_04", 24), chars("s_dist_05", 24),
            chars("s_dist_06", 24), chars("s_dist_07", 24), chars("s_dist_08", 24), chars("s_dist_09", 24),
            chars("s_dist_10", 24), integer("s_ytd"), integer("s_order_cnt"), integer("s_remote_cnt"),
            varchar("s_data", 50)),
            "s_w_id, s_i_id"),
    SUPPLIER(List.of(
            integer("su_suppkey"), chars("su_name", 25), varchar("su_address", 40), integer("su_nationkey"),
            chars("su_phone", 15), decimal("su_acctbal", 12, 2), varchar("su_comment", 101)),
            "su_suppkey"),
    NATION(List.of(
            integer("n_nationkey"), chars("n_name", 25), integer("n_regionkey"), varchar("n_comment", 152)),
            "n_nationkey"),
    REGION(List.of(
            integer("r_regionkey"), chars("r_name", 55), varchar("r_comment", 152)),
            "r_regionkey");

    private final List<Column> columns;
    private final String primaryKey;

    ChBenchmarkTable(List<Column> columns, String primaryKey) {
        this.columns = columns;
        this.primaryKey = primaryKey;
    }

    @Override
    public String sqlName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public String primaryKey() {
        return primaryKey;
    }
}
