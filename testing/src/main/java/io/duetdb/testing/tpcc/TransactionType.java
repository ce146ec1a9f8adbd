package io.duetdb.testing.tpcc;

/** The five TPC-C transactions with the mix of clause 5.2.3 in percent (45/43/4/4/4). */
public enum TransactionType {
    NEW_ORDER("New-Order", 45),
    PAYMENT("Payment", 43),
    ORDER_STATUS("Order-Status", 4),
    DELIVERY("Delivery", 4),
    STOCK_LEVEL("Stock-Level", 4);

    private final String title;
    private final int percent;

    TransactionType(String title, int percent) {
        this.title = title;
        this.percent = percent;
    }

    public String title() {
        return title;
    }

    public int percent() {
        return percent;
    }

    /** The next transaction of the mix: each type with its percentage. */
    static TransactionType choose(TpccRandom random) {
        int draw = random.uniform(1, 100);
        for (TransactionType type : values()) {
            draw -= type.percent;
            if (draw <= 0) {
                return type;
            }
        }
        throw new IllegalStateException("the mix does not add up to 100");
    }
}
