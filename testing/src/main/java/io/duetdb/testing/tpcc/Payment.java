package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;

/**
 * Payment (clause 2.5): an amount of 1.00 to 5,000.00 paid by a customer of the home district (85%) or of a
 * random district of another warehouse (15%, when there are several), chosen by last name (60%) or by id. The
 * warehouse, district and customer rows are read FOR UPDATE and updated; a bad-credit customer's C_DATA gets the
 * payment prepended; a HISTORY row records it.
 */
final class Payment implements TpccTransaction<Payment.Input> {
    /** The terminal's input; {@code customerId} is 0 when the customer is chosen by {@code lastName}. */
    record Input(int district, int customerWarehouse, int customerDistrict, int customerId, String lastName,
            BigDecimal amount) {
        Input {
            requireNonNull(amount, "amount is null");
        }
    }

    private static final int CUSTOMER_DATA_LENGTH = 500;
    private static final String WAREHOUSE = "SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip"
            + " FROM warehouse WHERE w_id = ? FOR UPDATE";
    private static final String WAREHOUSE_UPDATE = "UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?";
    private static final String DISTRICT = "SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip"
            + " FROM district WHERE d_w_id = ? AND d_id = ? FOR UPDATE";
    private static final String DISTRICT_UPDATE = "UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?";
    private static final String CUSTOMER_BY_NAME = "SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ?"
            + " AND c_last = ? ORDER BY c_first";
    private static final String CUSTOMER = "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city,"
            + " c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance FROM customer"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ? FOR UPDATE";
    private static final String CUSTOMER_DATA = "SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ?"
            + " AND c_id = ?";
    private static final String CUSTOMER_UPDATE = "UPDATE customer SET c_balance = c_balance - ?,"
            + " c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    private static final String BAD_CREDIT_UPDATE = "UPDATE customer SET c_balance = c_balance - ?,"
            + " c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1, c_data = ?"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    private static final String HISTORY = "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date,"
            + " h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

    private final PreparedStatements statements;
    private final TerminalContext context;

    Payment(PreparedStatements statements, TerminalContext context) {
        this.statements = requireNonNull(statements, "statements is null");
        this.context = requireNonNull(context, "context is null");
    }

    @Override
    public Input input() {
        TpccRandom random = context.random();
        int district = context.randomDistrict();
        int customerWarehouse = context.warehouse();
        int customerDistrict = district;
        if (context.scale().warehouses() > 1 && random.percent(15)) {
            customerWarehouse = context.otherWarehouse();
            customerDistrict = context.randomDistrict();
        }
        boolean byName = random.percent(60);
        return new Input(district, customerWarehouse, customerDistrict, byName ? 0 : context.randomCustomerId(),
                byName ? context.randomLastName() : null, random.money(100, 500_000));
    }

    @Override
    public Outcome execute(Input input) throws SQLException {
        int warehouse = context.warehouse();
        String warehouseName;
        try (ResultSet result = statements.bind(WAREHOUSE, warehouse).executeQuery()) {
            if (!result.next()) {
                throw new TpccAnomaly("warehouse missing", String.valueOf(warehouse));
            }
            warehouseName = result.getString(1);
        }
        statements.bind(WAREHOUSE_UPDATE, input.amount(), warehouse).executeUpdate();
        String districtName;
        try (ResultSet result = statements.bind(DISTRICT, warehouse, input.district()).executeQuery()) {
            if (!result.next()) {
                throw new TpccAnomaly("district missing", warehouse + "/" + input.district());
            }
            districtName = result.getString(1);
        }
        statements.bind(DISTRICT_UPDATE, input.amount(), warehouse, input.district()).executeUpdate();

        int customer = input.customerId() != 0 ? input.customerId() : customerByName(input);
        String credit;
        try (ResultSet result = statements.bind(CUSTOMER, input.customerWarehouse(), input.customerDistrict(),
                customer).executeQuery()) {
            if (!result.next()) {
                throw new TpccAnomaly("customer missing", input.customerWarehouse() + "/"
                        + input.customerDistrict() + "/" + customer);
            }
            credit = result.getString(11);
        }
        if ("BC".equals(credit)) {
            String data;
            try (ResultSet result = statements.bind(CUSTOMER_DATA, input.customerWarehouse(), input.customerDistrict(),
                    customer).executeQuery()) {
                result.next();
                data = result.getString(1);
            }
            String entry = String.format("%d %d %d %d %d %s | ", customer, input.customerDistrict(),
                    input.customerWarehouse(), input.district(), warehouse, input.amount().toPlainString());
            String updated = entry + data;
            statements.bind(BAD_CREDIT_UPDATE, input.amount(), input.amount(),
                    updated.substring(0, Math.min(CUSTOMER_DATA_LENGTH, updated.length())),
                    input.customerWarehouse(), input.customerDistrict(), customer).executeUpdate();
        } else {
            statements.bind(CUSTOMER_UPDATE, input.amount(), input.amount(), input.customerWarehouse(),
                    input.customerDistrict(), customer).executeUpdate();
        }
        statements.bind(HISTORY, customer, input.customerDistrict(), input.customerWarehouse(), input.district(),
                warehouse, LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS), input.amount(),
                warehouseName + "    " + districtName).executeUpdate();
        statements.connection().commit();
        return Outcome.COMMITTED;
    }

    /** The customer at position n / 2 rounded up of those with the last name, sorted by first name. */
    private int customerByName(Input input) throws SQLException {
        return CustomerByName.middle(statements.bind(CUSTOMER_BY_NAME, input.customerWarehouse(),
                input.customerDistrict(), input.lastName()), "customer by name");
    }
}
