package io.duetdb.testing.tpcc;

import static io.duetdb.testing.reference.Column.chars;
import static io.duetdb.testing.reference.Column.dateTime;
import static io.duetdb.testing.reference.Column.decimal;
import static io.duetdb.testing.reference.Column.integer;
import static io.duetdb.testing.reference.Column.varchar;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.duetdb.testing.reference.Column;
import io.duetdb.testing.reference.Table;

/**
 * TPC-C's nine tables with the columns, types and primary keys of clause 1.3 (HISTORY has none), and the
 * secondary indexes MySQL TPC-C drivers create for the transactions' non-key lookups: customers by last name
 * (Payment and Order-Status) and a customer's latest order (Order-Status). NUMERIC(n) columns are INTEGER,
 * signed NUMERIC(m,n) are DECIMAL(m,n), date and time columns DATETIME.
 */
public enum TpccTable implements Table {
    WAREHOUSE(List.of(
            integer("w_id"), varchar("w_name", 10), varchar("w_street_1", 20), varchar("w_street_2", 20),
            varchar("w_city", 20), chars("w_state", 2), chars("w_zip", 9), decimal("w_tax", 4, 4),
            decimal("w_ytd", 12, 2)),
            "w_id", List.of()),
    DISTRICT(List.of(
            integer("d_id"), integer("d_w_id"), varchar("d_name", 10), varchar("d_street_1", 20),
            varchar("d_street_2", 20), varchar("d_city", 20), chars("d_state", 2), chars("d_zip", 9),
            decimal("d_tax", 4, 4), decimal("d_ytd", 12, 2), integer("d_next_o_id")),
            "d_w_id, d_id", List.of()),
    CUSTOMER(List.of(
            integer("c_id"), integer("c_d_id"), integer("c_w_id"), varchar("c_first", 16), chars("c_middle", 2),
            varchar("c_last", 16), varchar("c_street_1", 20), varchar("c_street_2", 20), varchar("c_city", 20),
            chars("c_state", 2), chars("c_zip", 9), chars("c_phone", 16), dateTime("c_since"), chars("c_credit", 2),
            decimal("c_credit_lim", 12, 2), decimal("c_discount", 4, 4), decimal("c_balance", 12, 2),
            decimal("c_ytd_payment", 12, 2), integer("c_payment_cnt"), integer("c_delivery_cnt"),
            varchar("c_data", 500)),
            "c_w_id, c_d_id, c_id", List.of("idx_customer (c_w_id, c_d_id, c_last, c_first)")),
    HISTORY(List.of(
            integer("h_c_id"), integer("h_c_d_id"), integer("h_c_w_id"), integer("h_d_id"), integer("h_w_id"),
            dateTime("h_date"), decimal("h_amount", 6, 2), varchar("h_data", 24)),
            "", List.of()),
    NEW_ORDER(List.of(
            integer("no_o_id"), integer("no_d_id"), integer("no_w_id")),
            "no_w_id, no_d_id, no_o_id", List.of()),
    ORDERS(List.of(
            integer("o_id"), integer("o_d_id"), integer("o_w_id"), integer("o_c_id"), dateTime("o_entry_d"),
            integer("o_carrier_id").orNull(), integer("o_ol_cnt"), integer("o_all_local")),
            "o_w_id, o_d_id, o_id", List.of("idx_order (o_w_id, o_d_id, o_c_id, o_id)")),
    ORDER_LINE(List.of(
            integer("ol_o_id"), integer("ol_d_id"), integer("ol_w_id"), integer("ol_number"), integer("ol_i_id"),
            integer("ol_supply_w_id"), dateTime("ol_delivery_d").orNull(), integer("ol_quantity"),
            decimal("ol_amount", 6, 2), chars("ol_dist_info", 24)),
            "ol_w_id, ol_d_id, ol_o_id, ol_number", List.of()),
    ITEM(List.of(
            integer("i_id"), integer("i_im_id"), varchar("i_name", 24), decimal("i_price", 5, 2),
            varchar("i_data", 50)),
            "i_id", List.of()),
    STOCK(stockColumns(), "s_w_id, s_i_id", List.of());

    private final List<Column> columns;
    private final String primaryKey;
    private final List<String> indexes;

    TpccTable(List<Column> columns, String primaryKey, List<String> indexes) {
        this.columns = columns;
        this.primaryKey = primaryKey;
        this.indexes = indexes;
    }

    private static List<Column> stockColumns() {
        List<Column> columns = new ArrayList<>(List.of(integer("s_i_id"), integer("s_w_id"), integer("s_quantity")));
        for (int district = 1; district <= TpccScale.DISTRICTS_PER_WAREHOUSE; district++) {
            columns.add(chars(stockDistrictColumn(district), 24));
        }
        columns.addAll(List.of(integer("s_ytd"), integer("s_order_cnt"), integer("s_remote_cnt"),
                varchar("s_data", 50)));
        return List.copyOf(columns);
    }

    /** S_DIST_01 to S_DIST_10: the district information New-Order copies into OL_DIST_INFO. */
    static String stockDistrictColumn(int district) {
        return String.format("s_dist_%02d", district);
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

    /** The secondary indexes as {@code name (columns)}. */
    public List<String> indexes() {
        return indexes;
    }

    /** CREATE TABLE with the primary key and the secondary indexes (as MySQL TPC-C drivers create them). */
    @Override
    public String createTableSql() {
        return "CREATE TABLE " + sqlName() + " ("
                + columns.stream().map(Column::definition).collect(Collectors.joining(", "))
                + (primaryKey.isEmpty() ? "" : ", PRIMARY KEY (" + primaryKey + ")")
                + indexes.stream().map(index -> ", KEY " + index).collect(Collectors.joining()) + ")";
    }
}
