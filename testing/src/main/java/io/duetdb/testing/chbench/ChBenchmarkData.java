package io.duetdb.testing.chbench;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import io.duetdb.testing.reference.GeneratedData;
import io.duetdb.testing.reference.UnitRandom;

/**
 * A deterministic generator of the CH-benCHmark database: TPC-C's initial population (clause 4.3.3.1) for some
 * warehouses, with fewer items and customers per district than TPC-C's 100,000 and 3,000 so that a small database
 * loads in seconds, and CH-benCHmark's 10,000 suppliers, 62 nations (keyed by the ASCII codes of the characters
 * that start a customer's state) and 5 regions.
 *
 * <p>The population departs from TPC-C's where the initial database would leave the analytical queries nothing to
 * select: it looks as if the transactions had run for a while. Orders are entered at times spread over 2005 to
 * 2012 rather than all at load time; delivered lines arrive up to a month after their order, and every line has a
 * quantity of 1 to 10 and an amount (TPC-C loads 5 and 0.00); an order's customer is drawn at random rather than
 * from a permutation, so some customers have no order; balances and stock order counts vary. The last 30 % of each
 * district's orders are new (undelivered: no carrier, no delivery date), as TPC-C's last 900 of 3,000.
 *
 * <p>Like {@link io.duetdb.testing.tpch.TpchData}, rows come in units, each drawing from its own random stream, so
 * that any range of units can be generated alone: one row per unit, except ORDER_LINE (the lines of one order,
 * from the same stream as the order).
 */
public final class ChBenchmarkData implements GeneratedData<ChBenchmarkTable> {
    public static final long SEED = 0xC4_BE7C4L;
    public static final int DISTRICTS_PER_WAREHOUSE = 10;
    public static final int SUPPLIERS = 10_000;

    static final LocalDateTime LOAD_TIME = LocalDateTime.of(2013, 1, 1, 0, 0);
    static final LocalDateTime FIRST_ORDER = LocalDateTime.of(2005, 1, 1, 0, 0);
    private static final long ORDER_SECONDS = java.time.Duration.between(FIRST_ORDER, LOAD_TIME).toSeconds();
    private static final long DELIVERY_SECONDS = 30L * 24 * 3600;

    static final String[] REGIONS = {"Africa", "America", "Asia", "Australia", "Europe"};
    private static final int AFRICA = 0;
    private static final int AMERICA = 1;
    private static final int ASIA = 2;
    private static final int AUSTRALIA = 3;
    private static final int EUROPE = 4;

    /** The nations in key order, each keyed by the next of {@link #ALPHANUMERIC}'s characters. */
    static final List<Nation> NATIONS = List.of(
            new Nation("Algeria", AFRICA), new Nation("Argentina", AMERICA), new Nation("Australia", AUSTRALIA),
            new Nation("Austria", EUROPE), new Nation("Belgium", EUROPE), new Nation("Brazil", AMERICA),
            new Nation("Bulgaria", EUROPE), new Nation("Cambodia", ASIA), new Nation("Canada", AMERICA),
            new Nation("Chile", AMERICA), new Nation("China", ASIA), new Nation("Colombia", AMERICA),
            new Nation("Croatia", EUROPE), new Nation("Cuba", AMERICA), new Nation("Denmark", EUROPE),
            new Nation("Egypt", AFRICA), new Nation("Estonia", EUROPE), new Nation("Ethiopia", AFRICA),
            new Nation("Fiji", AUSTRALIA), new Nation("Finland", EUROPE), new Nation("France", EUROPE),
            new Nation("Germany", EUROPE), new Nation("Ghana", AFRICA), new Nation("Greece", EUROPE),
            new Nation("Hungary", EUROPE), new Nation("Iceland", EUROPE), new Nation("India", ASIA),
            new Nation("Indonesia", ASIA), new Nation("Ireland", EUROPE), new Nation("Italy", EUROPE),
            new Nation("Japan", ASIA), new Nation("Kenya", AFRICA), new Nation("Latvia", EUROPE),
            new Nation("Malaysia", ASIA), new Nation("Mexico", AMERICA), new Nation("Mongolia", ASIA),
            new Nation("Morocco", AFRICA), new Nation("Nepal", ASIA), new Nation("New Zealand", AUSTRALIA),
            new Nation("Nigeria", AFRICA), new Nation("Norway", EUROPE), new Nation("Pakistan", ASIA),
            new Nation("Papua New Guinea", AUSTRALIA), new Nation("Peru", AMERICA),
            new Nation("Philippines", ASIA), new Nation("Poland", EUROPE), new Nation("Portugal", EUROPE),
            new Nation("Romania", EUROPE), new Nation("Samoa", AUSTRALIA), new Nation("Senegal", AFRICA),
            new Nation("Singapore", ASIA), new Nation("South Africa", AFRICA), new Nation("Spain", EUROPE),
            new Nation("Sweden", EUROPE), new Nation("Switzerland", EUROPE), new Nation("Tanzania", AFRICA),
            new Nation("Thailand", ASIA), new Nation("Tonga", AUSTRALIA), new Nation("United Kingdom", EUROPE),
            new Nation("United States", AMERICA), new Nation("Uruguay", AMERICA), new Nation("Vietnam", ASIA));

    /** TPC-C's a-string characters; a nation's key is the ASCII code of one of them. */
    static final String ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final String DIGITS = "0123456789";
    private static final String[] SYLLABLES = {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY",
        "ATION", "EING"};
    private static final String[] WORDS = {"accounts", "blithely", "bold", "carefully", "deliveries", "deposits",
        "express", "final", "furiously", "ideas", "packages", "pending", "quickly", "regular", "requests", "slyly",
        "special", "theodolites", "unusual", "warhorses"};

    /** A nation's name and region. */
    record Nation(String name, int region) {
        Nation {
            java.util.Objects.requireNonNull(name, "name");
        }
    }

    private final int warehouses;
    private final int items;
    private final int customersPerDistrict;
    private final int firstNewOrder;

    /** The database for {@code warehouses} warehouses, {@code items} items and customers per district. */
    public ChBenchmarkData(int warehouses, int items, int customersPerDistrict) {
        if (warehouses < 1 || items < 1 || customersPerDistrict < 10) {
            throw new IllegalArgumentException("need a warehouse, an item and ten customers per district");
        }
        this.warehouses = warehouses;
        this.items = items;
        this.customersPerDistrict = customersPerDistrict;
        this.firstNewOrder = customersPerDistrict - customersPerDistrict * 3 / 10 + 1;
    }

    @Override
    public List<ChBenchmarkTable> tables() {
        return List.of(ChBenchmarkTable.values());
    }

    @Override
    public long units(ChBenchmarkTable table) {
        long districts = (long) warehouses * DISTRICTS_PER_WAREHOUSE;
        return switch (table) {
            case WAREHOUSE -> warehouses;
            case DISTRICT -> districts;
            case CUSTOMER, HISTORY, ORDERS, ORDER_LINE -> districts * customersPerDistrict;
            case NEW_ORDER -> districts * (customersPerDistrict - firstNewOrder + 1);
            case ITEM -> items;
            case STOCK -> (long) warehouses * items;
            case SUPPLIER -> SUPPLIERS;
            case NATION -> NATIONS.size();
            case REGION -> REGIONS.length;
        };
    }

    /** Exact except for ORDER_LINE, where it is the expected count (ten lines per order). */
    @Override
    public long approximateRows(ChBenchmarkTable table) {
        return table == ChBenchmarkTable.ORDER_LINE ? 10 * units(table) : units(table);
    }

    @Override
    public void generate(ChBenchmarkTable table, long from, long to, Consumer<Object[]> sink) {
        for (long unit = from; unit < to; unit++) {
            int index = Math.toIntExact(unit);
            switch (table) {
                case WAREHOUSE -> sink.accept(warehouse(index + 1));
                case DISTRICT -> sink.accept(district(index));
                case CUSTOMER -> sink.accept(customer(index));
                case HISTORY -> sink.accept(history(index));
                case NEW_ORDER -> sink.accept(newOrder(index));
                case ORDERS -> order(index, sink, null);
                case ORDER_LINE -> order(index, null, sink);
                case ITEM -> sink.accept(item(index + 1));
                case STOCK -> sink.accept(stock(index));
                case SUPPLIER -> sink.accept(supplier(index));
                case NATION -> sink.accept(nation(index));
                case REGION -> sink.accept(new Object[] {index, REGIONS[index],
                    text(random(table, index), 30, 150)});
                default -> throw new IllegalArgumentException(table.name());
            }
        }
    }

    private Object[] warehouse(int id) {
        SplittableRandom random = random(ChBenchmarkTable.WAREHOUSE, id);
        return new Object[] {id, string(random, 6, 10), string(random, 10, 20), string(random, 10, 20),
            string(random, 10, 20), string(random, 2, 2), zip(random), fraction(random, 2_000),
            money(30_000_000)};
    }

    private Object[] district(int index) {
        SplittableRandom random = random(ChBenchmarkTable.DISTRICT, index);
        return new Object[] {index % DISTRICTS_PER_WAREHOUSE + 1, index / DISTRICTS_PER_WAREHOUSE + 1,
            string(random, 6, 10), string(random, 10, 20), string(random, 10, 20), string(random, 10, 20),
            string(random, 2, 2), zip(random), fraction(random, 2_000), money(3_000_000L),
            customersPerDistrict + 1};
    }

    /** A customer's or an order's key: its warehouse, its district and its number there. */
    private record Key(int warehouse, int district, int number) {
    }

    /** The key of a unit counted per customer, in primary-key order. */
    private Key customerKey(int index) {
        int district = index / customersPerDistrict;
        return new Key(district / DISTRICTS_PER_WAREHOUSE + 1, district % DISTRICTS_PER_WAREHOUSE + 1,
                index % customersPerDistrict + 1);
    }

    private Object[] customer(int index) {
        Key key = customerKey(index);
        SplittableRandom random = random(ChBenchmarkTable.CUSTOMER, index);
        int id = key.number();
        return new Object[] {id, key.district(), key.warehouse(), string(random, 8, 16), "OE",
            lastName((id - 1) % 1000),
            string(random, 10, 20), string(random, 10, 20), string(random, 10, 20), string(random, 2, 2),
            zip(random), chars(random, DIGITS, 16), LOAD_TIME, random.nextInt(10) == 0 ? "BC" : "GC",
            money(5_000_000), fraction(random, 5_000), money(uniform(random, -10_000, 500_000)),
            money(uniform(random, 1_000, 500_000)), uniform(random, 1, 20), uniform(random, 0, 10),
            string(random, 300, 500)};
    }

    static String lastName(int number) {
        return SYLLABLES[number / 100] + SYLLABLES[number / 10 % 10] + SYLLABLES[number % 10];
    }

    private Object[] history(int index) {
        Key key = customerKey(index);
        SplittableRandom random = random(ChBenchmarkTable.HISTORY, index);
        return new Object[] {key.number(), key.district(), key.warehouse(), key.district(), key.warehouse(),
            LOAD_TIME, money(1_000), string(random, 12, 24)};
    }

    private Object[] newOrder(int index) {
        int perDistrict = customersPerDistrict - firstNewOrder + 1;
        int district = index / perDistrict;
        return new Object[] {firstNewOrder + index % perDistrict, district % DISTRICTS_PER_WAREHOUSE + 1,
            district / DISTRICTS_PER_WAREHOUSE + 1};
    }

    /** One order to {@code orders} and its lines to {@code lines}, both from the order's stream. */
    private void order(int index, Consumer<Object[]> orders, Consumer<Object[]> lines) {
        Key key = customerKey(index);
        int id = key.number();
        SplittableRandom random = random(ChBenchmarkTable.ORDERS, index);
        boolean delivered = id < firstNewOrder;
        LocalDateTime entered = FIRST_ORDER.plusSeconds(random.nextLong(ORDER_SECONDS));
        int customer = uniform(random, 1, customersPerDistrict);
        Integer carrier = delivered ? uniform(random, 1, 10) : null;
        int lineCount = uniform(random, 5, 15);
        if (orders != null) {
            orders.accept(new Object[] {id, key.district(), key.warehouse(), customer, entered, carrier, lineCount,
                1});
        }
        if (lines != null) {
            for (int number = 1; number <= lineCount; number++) {
                LocalDateTime deliveredAt = delivered ? entered.plusSeconds(1 + random.nextLong(DELIVERY_SECONDS))
                        : null;
                lines.accept(new Object[] {id, key.district(), key.warehouse(), number, uniform(random, 1, items),
                    key.warehouse(), deliveredAt, uniform(random, 1, 10), money(uniform(random, 1, 999_999)),
                    chars(random, ALPHANUMERIC, 24)});
            }
        }
    }

    private Object[] item(int id) {
        SplittableRandom random = random(ChBenchmarkTable.ITEM, id);
        return new Object[] {id, uniform(random, 1, 10_000), string(random, 14, 24),
            money(uniform(random, 100, 10_000)), data(random)};
    }

    private Object[] stock(int index) {
        SplittableRandom random = random(ChBenchmarkTable.STOCK, index);
        Object[] row = new Object[17];
        row[0] = index % items + 1;
        row[1] = index / items + 1;
        row[2] = uniform(random, 10, 100);
        for (int district = 0; district < DISTRICTS_PER_WAREHOUSE; district++) {
            row[3 + district] = chars(random, ALPHANUMERIC, 24);
        }
        int orders = uniform(random, 0, 100);
        row[13] = orders * 5;
        row[14] = orders;
        row[15] = 0;
        row[16] = data(random);
        return row;
    }

    private Object[] supplier(int key) {
        SplittableRandom random = random(ChBenchmarkTable.SUPPLIER, key);
        String phone = uniform(random, 10, 34) + "-" + chars(random, DIGITS, 3) + "-" + chars(random, DIGITS, 3)
                + "-" + chars(random, DIGITS, 4);
        return new Object[] {key, String.format("Supplier#%09d", key), string(random, 10, 40),
            (int) ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length())), phone,
            money(uniform(random, -99_999, 999_999)), text(random, 25, 100)};
    }

    private Object[] nation(int index) {
        Nation nation = NATIONS.get(index);
        return new Object[] {(int) ALPHANUMERIC.charAt(index), nation.name(), nation.region(),
            text(random(ChBenchmarkTable.NATION, index), 30, 150)};
    }

    /** I_DATA and S_DATA: a random string of 26 to 50 characters, a tenth of them holding "ORIGINAL". */
    private static String data(SplittableRandom random) {
        String data = string(random, 26, 50);
        if (random.nextInt(10) == 0) {
            int at = random.nextInt(data.length() - 8 + 1);
            data = data.substring(0, at) + "ORIGINAL" + data.substring(at + 8);
        }
        return data;
    }

    /** Words of {@link #WORDS}, {@code min} to {@code max} characters; one text in twenty starts with "bad". */
    private static String text(SplittableRandom random, int min, int max) {
        int length = uniform(random, min, max);
        StringBuilder text = new StringBuilder(random.nextInt(20) == 0 ? "bad" : WORDS[random.nextInt(WORDS.length)]);
        while (text.length() < length) {
            text.append(' ').append(WORDS[random.nextInt(WORDS.length)]);
        }
        return text.substring(0, length).strip();
    }

    private static String zip(SplittableRandom random) {
        return chars(random, DIGITS, 4) + "11111";
    }

    /** TPC-C's random a-string of {@code min} to {@code max} alphanumeric characters. */
    private static String string(SplittableRandom random, int min, int max) {
        return chars(random, ALPHANUMERIC, uniform(random, min, max));
    }

    private static String chars(SplittableRandom random, String alphabet, int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = alphabet.charAt(random.nextInt(alphabet.length()));
        }
        return new String(chars);
    }

    private static BigDecimal money(long cents) {
        return BigDecimal.valueOf(cents, 2);
    }

    /** A DECIMAL(4,4) from 0 to {@code maxTenThousandths} / 10,000. */
    private static BigDecimal fraction(SplittableRandom random, int maxTenThousandths) {
        return BigDecimal.valueOf(uniform(random, 0, maxTenThousandths), 4);
    }

    private static int uniform(SplittableRandom random, int min, int max) {
        return min + random.nextInt(max - min + 1);
    }

    private static SplittableRandom random(ChBenchmarkTable table, long unit) {
        return UnitRandom.of(SEED, table.ordinal(), unit, 0);
    }
}
