package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * New-Order (clause 2.4): 5 to 15 lines of NURand items, 1% of them from a remote warehouse when there are
 * several; 1% of the transactions name an unused item last and roll back. The district's next order id is read
 * FOR UPDATE; the items are read with one {@code i_id IN (...)} and the stock rows locked with one composite-key
 * IN list, {@code (s_w_id, s_i_id) IN ((?, ?), ...) FOR UPDATE}, as MySQL TPC-C drivers do. Lines are entered in
 * (supply warehouse, item) order, so that concurrent orders lock stock rows in one order.
 */
final class NewOrder implements TpccTransaction<NewOrder.Input> {
    /** One order line's input. */
    record Line(int item, int supplyWarehouse, int quantity) {
    }

    /** The terminal's input: district, customer, lines, and whether the last line's item is unused. */
    record Input(int district, int customer, List<Line> lines, boolean rollback) {
        Input {
            lines = List.copyOf(lines);
        }
    }

    private record StockKey(int warehouse, int item) {
    }

    private static final class Stock {
        int quantity;
        final String data;
        final String districtInfo;

        Stock(int quantity, String data, String districtInfo) {
            this.quantity = quantity;
            this.data = data;
            this.districtInfo = districtInfo;
        }
    }

    private record Item(BigDecimal price, String name, String data) {
    }

    private static final String CUSTOMER = "SELECT c_discount, c_last, c_credit FROM customer"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    private static final String WAREHOUSE = "SELECT w_tax FROM warehouse WHERE w_id = ?";
    private static final String DISTRICT = "SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?"
            + " FOR UPDATE";
    private static final String NEXT_ORDER = "UPDATE district SET d_next_o_id = ? WHERE d_w_id = ? AND d_id = ?";
    private static final String ORDER = "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt,"
            + " o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?)";
    private static final String NEW_ORDER = "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)";
    private static final String STOCK_UPDATE = "UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?,"
            + " s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ? WHERE s_w_id = ? AND s_i_id = ?";

    private final PreparedStatements statements;
    private final TerminalContext context;
    /** The last committed order's total amount, which the terminal's output shows (clause 2.4.3.5). */
    private BigDecimal lastTotal = BigDecimal.ZERO;

    NewOrder(PreparedStatements statements, TerminalContext context) {
        this.statements = requireNonNull(statements, "statements is null");
        this.context = requireNonNull(context, "context is null");
    }

    BigDecimal lastTotal() {
        return lastTotal;
    }

    @Override
    public Input input() {
        TpccRandom random = context.random();
        int count = random.uniform(5, 15);
        boolean rollback = random.uniform(1, 100) == 1;
        List<Line> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int item = rollback && i == count - 1 ? context.scale().items() + 1 : context.randomItemId();
            int supply = context.scale().warehouses() > 1 && random.percent(1) ? context.otherWarehouse()
                    : context.warehouse();
            lines.add(new Line(item, supply, random.uniform(1, 10)));
        }
        lines.sort(Comparator.comparingInt(Line::supplyWarehouse).thenComparingInt(Line::item));
        return new Input(context.randomDistrict(), context.randomCustomerId(), lines, rollback);
    }

    @Override
    public Outcome execute(Input input) throws SQLException {
        int warehouse = context.warehouse();
        int district = input.district();
        BigDecimal discount;
        try (ResultSet result = statements.bind(CUSTOMER, warehouse, district, input.customer()).executeQuery()) {
            if (!result.next()) {
                throw new TpccAnomaly("customer missing", warehouse + "/" + district + "/" + input.customer());
            }
            discount = result.getBigDecimal(1);
        }
        BigDecimal taxes;
        try (ResultSet result = statements.bind(WAREHOUSE, warehouse).executeQuery()) {
            if (!result.next()) {
                throw new TpccAnomaly("warehouse missing", String.valueOf(warehouse));
            }
            taxes = result.getBigDecimal(1);
        }
        int orderId;
        try (ResultSet result = statements.bind(DISTRICT, warehouse, district).executeQuery()) {
            if (!result.next()) {
                throw new TpccAnomaly("district missing", warehouse + "/" + district);
            }
            taxes = taxes.add(result.getBigDecimal(1));
            orderId = result.getInt(2);
        }
        statements.bind(NEXT_ORDER, orderId + 1, warehouse, district).executeUpdate();
        boolean allLocal = input.lines().stream().allMatch(line -> line.supplyWarehouse() == warehouse);
        statements.bind(ORDER, orderId, district, warehouse, input.customer(),
                LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS), input.lines().size(), allLocal ? 1 : 0)
                .executeUpdate();
        statements.bind(NEW_ORDER, orderId, district, warehouse).executeUpdate();

        Map<Integer, Item> items = items(input);
        if (items.size() < input.lines().stream().map(Line::item).distinct().count()) {
            statements.connection().rollback();
            if (input.rollback()) {
                return Outcome.ROLLED_BACK;
            }
            throw new TpccAnomaly("item missing", "an order's item is not in ITEM");
        }
        Map<StockKey, Stock> stock = stock(input);
        BigDecimal subtotal = BigDecimal.ZERO;
        List<Object> lineValues = new ArrayList<>();
        int number = 0;
        for (Line line : input.lines()) {
            number++;
            StockKey key = new StockKey(line.supplyWarehouse(), line.item());
            Stock row = stock.get(key);
            if (row == null) {
                throw new TpccAnomaly("stock missing", key.toString());
            }
            row.quantity = row.quantity >= line.quantity() + 10 ? row.quantity - line.quantity()
                    : row.quantity - line.quantity() + 91;
            statements.bind(STOCK_UPDATE, row.quantity, line.quantity(), line.supplyWarehouse() == warehouse ? 0 : 1,
                    line.supplyWarehouse(), line.item()).executeUpdate();
            Item item = items.get(line.item());
            BigDecimal amount = item.price().multiply(BigDecimal.valueOf(line.quantity()));
            subtotal = subtotal.add(amount);
            lineValues.addAll(List.of(orderId, district, warehouse, number, line.item(), line.supplyWarehouse(),
                    line.quantity(), amount, row.districtInfo));
        }
        statements.bind(orderLines(input.lines().size()), lineValues.toArray()).executeUpdate();
        statements.connection().commit();
        lastTotal = subtotal.multiply(BigDecimal.ONE.subtract(discount)).multiply(BigDecimal.ONE.add(taxes));
        return Outcome.COMMITTED;
    }

    private Map<Integer, Item> items(Input input) throws SQLException {
        Set<Integer> ids = new LinkedHashSet<>();
        for (Line line : input.lines()) {
            ids.add(line.item());
        }
        PreparedStatement select = statements.get("SELECT i_id, i_price, i_name, i_data FROM item WHERE i_id IN ("
                + placeholders(ids.size(), "?") + ")");
        int parameter = 1;
        for (int id : ids) {
            select.setInt(parameter++, id);
        }
        Map<Integer, Item> items = new HashMap<>();
        try (ResultSet result = select.executeQuery()) {
            while (result.next()) {
                items.put(result.getInt(1), new Item(result.getBigDecimal(2), result.getString(3), result.getString(4)));
            }
        }
        return items;
    }

    private Map<StockKey, Stock> stock(Input input) throws SQLException {
        Set<StockKey> keys = new LinkedHashSet<>();
        for (Line line : input.lines()) {
            keys.add(new StockKey(line.supplyWarehouse(), line.item()));
        }
        PreparedStatement select = statements.get("SELECT s_w_id, s_i_id, s_quantity, s_data, "
                + TpccTable.stockDistrictColumn(input.district()) + " FROM stock WHERE (s_w_id, s_i_id) IN ("
                + placeholders(keys.size(), "(?, ?)") + ") FOR UPDATE");
        int parameter = 1;
        for (StockKey key : keys) {
            select.setInt(parameter++, key.warehouse());
            select.setInt(parameter++, key.item());
        }
        Map<StockKey, Stock> stock = new HashMap<>();
        try (ResultSet result = select.executeQuery()) {
            while (result.next()) {
                stock.put(new StockKey(result.getInt(1), result.getInt(2)),
                        new Stock(result.getInt(3), result.getString(4), result.getString(5)));
            }
        }
        return stock;
    }

    private static String orderLines(int count) {
        return "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity,"
                + " ol_amount, ol_dist_info) VALUES " + placeholders(count, "(?, ?, ?, ?, ?, ?, ?, ?, ?)");
    }

    private static String placeholders(int count, String one) {
        return IntStream.range(0, count).mapToObj(i -> one).collect(Collectors.joining(", "));
    }
}
