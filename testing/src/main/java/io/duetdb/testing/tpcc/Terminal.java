package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.duetdb.testing.reference.ConnectionSource;

/**
 * One emulated terminal: a connection with autocommit off that runs the transaction mix back to back, without
 * keying or think time, as TPC-C drivers run it. A deadlock, lock wait timeout or write conflict rolls back and
 * runs the same inputs again (up to {@link #MAX_ATTEMPTS} times), counted as a retry; any other error rolls back,
 * is counted, and the terminal goes on with the next transaction, on a new connection if the old one was lost.
 */
final class Terminal implements Runnable {
    static final int MAX_ATTEMPTS = 10;

    private final ConnectionSource source;
    private final TerminalContext context;
    private final Supplier<TpccMetrics> metrics;
    private final BooleanSupplier running;
    private volatile Connection connection;
    private PreparedStatements statements;
    private Map<TransactionType, TpccTransaction<?>> transactions;
    private Delivery delivery;

    Terminal(ConnectionSource source, TerminalContext context, Supplier<TpccMetrics> metrics, BooleanSupplier running) {
        this.source = requireNonNull(source, "source is null");
        this.context = requireNonNull(context, "context is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.running = requireNonNull(running, "running is null");
    }

    /** Opens the terminal's connection; called before the run starts so that a bad endpoint fails early. */
    void connect() throws SQLException {
        Connection opened = source.open();
        opened.setAutoCommit(false);
        connection = opened;
        statements = new PreparedStatements(opened);
        delivery = new Delivery(statements, context);
        transactions = new EnumMap<>(TransactionType.class);
        transactions.put(TransactionType.NEW_ORDER, new NewOrder(statements, context));
        transactions.put(TransactionType.PAYMENT, new Payment(statements, context));
        transactions.put(TransactionType.ORDER_STATUS, new OrderStatus(statements, context));
        transactions.put(TransactionType.DELIVERY, delivery);
        transactions.put(TransactionType.STOCK_LEVEL, new StockLevel(statements, context));
    }

    @Override
    public void run() {
        try {
            while (running.getAsBoolean()) {
                if (connection == null) {
                    reconnect();
                    continue;
                }
                TransactionType type = TransactionType.choose(context.random());
                runOne(type, transactions.get(type));
            }
        } finally {
            close();
        }
    }

    private <I> void runOne(TransactionType type, TpccTransaction<I> transaction) {
        I input = transaction.input();
        long start = System.nanoTime();
        for (int attempt = 1; ; attempt++) {
            try {
                TpccTransaction.Outcome outcome = transaction.execute(input);
                TransactionStats stats = metrics.get().of(type);
                stats.completed(outcome, (System.nanoTime() - start) / 1_000);
                if (transaction == delivery) {
                    stats.skippedDistricts(delivery.skippedDistricts());
                }
                return;
            } catch (SQLException e) {
                String lastStatement = statements == null ? "" : statements.last();
                rollback();
                boolean lost = connection == null || SqlErrors.connectionLost(e);
                TransactionStats stats = metrics.get().of(type);
                String message = e.getMessage() + " [in: " + lastStatement + "]";
                if (!lost && SqlErrors.retried(e) && attempt < MAX_ATTEMPTS && running.getAsBoolean()) {
                    stats.retried(SqlErrors.key(e), message);
                    continue;
                }
                stats.failed(SqlErrors.key(e), message);
                if (lost) {
                    close();
                }
                return;
            }
        }
    }

    private void rollback() {
        if (connection == null) {
            return;
        }
        try {
            connection.rollback();
        } catch (SQLException e) {
            close();
        }
    }

    private void reconnect() {
        try {
            connect();
        } catch (SQLException e) {
            metrics.get().of(TransactionType.NEW_ORDER).failed("connect " + SqlErrors.key(e), e.getMessage());
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Ends a statement that outlives the run: closes the connection under it. */
    void abort() {
        Connection current = connection;
        if (current != null) {
            try {
                current.abort(Runnable::run);
            } catch (SQLException e) {
                // already closed
            }
        }
    }

    private void close() {
        Connection current = connection;
        connection = null;
        if (statements != null) {
            statements.close();
            statements = null;
        }
        if (current != null) {
            try {
                current.close();
            } catch (SQLException e) {
                // the server or the abort closed it already
            }
        }
    }
}
