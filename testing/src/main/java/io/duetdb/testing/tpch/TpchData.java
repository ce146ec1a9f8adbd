package io.duetdb.testing.tpch;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import io.duetdb.testing.reference.GeneratedData;
import io.duetdb.testing.reference.UnitRandom;

/**
 * A deterministic TPC-H data generator after the specification's clause 4.2.3 (and dbgen where the text leaves
 * room): cardinalities per scale factor, key relationships (four suppliers per part with dbgen's formula, sparse
 * order keys, a third of the customers without orders), value ranges and distributions, the order status and
 * total price derived from its line items, and the fixed nations and regions.
 *
 * <p>Rows are produced in <em>units</em>: one row per unit, except PARTSUPP (the four rows of one part) and
 * LINEITEM (the one to seven lines of one order). Every unit draws from its own random stream seeded by the
 * table, the unit and {@link #SEED}, so the same scale factor always gives the same rows and any range of units
 * can be generated alone (in parallel, or streamed without holding a table in memory). Orders and their lines
 * come from the same stream, so ORDERS and LINEITEM agree whichever is generated first.
 *
 * <p>Values: keys and sizes are {@link Integer}, money and quantities {@link BigDecimal} with scale 2, dates
 * {@link LocalDate}, everything else {@link String}.
 *
 * <p>Departures from dbgen, none of which the queries can tell: the text pool is smaller ({@link TpchText}); the
 * suppliers whose comments hold "Customer ... Complaints" and "Customer ... Recommends" number at least one each
 * even below scale factor 0.2 (the specification's SF * 5 rounds to zero there), so Q16's NOT IN is exercised at
 * small scale factors; and where dbgen's supplier formula repeats a supplier for a part (it does below scale
 * factor 0.01), the next free supplier is taken so that (ps_partkey, ps_suppkey) stays a key.
 */
public final class TpchData implements GeneratedData<TpchTable> {
    public static final long SEED = 0x7C0_FFEEL;

    static final LocalDate START_DATE = LocalDate.of(1992, 1, 1);
    static final LocalDate CURRENT_DATE = LocalDate.of(1995, 6, 17);
    static final LocalDate END_DATE = LocalDate.of(1998, 12, 31);

    static final String[] REGIONS = {"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"};
    static final String[] NATIONS = {"ALGERIA", "ARGENTINA", "BRAZIL", "CANADA", "EGYPT", "ETHIOPIA", "FRANCE",
        "GERMANY", "INDIA", "INDONESIA", "IRAN", "IRAQ", "JAPAN", "JORDAN", "KENYA", "MOROCCO", "MOZAMBIQUE", "PERU",
        "CHINA", "ROMANIA", "SAUDI ARABIA", "VIETNAM", "RUSSIA", "UNITED KINGDOM", "UNITED STATES"};
    static final int[] NATION_REGIONS = {0, 1, 1, 1, 4, 0, 3, 3, 2, 2, 4, 4, 2, 4, 0, 0, 0, 1, 2, 3, 4, 2, 3, 3, 1};

    static final String[] COLORS = {"almond", "antique", "aquamarine", "azure", "beige", "bisque", "black",
        "blanched", "blue", "blush", "brown", "burlywood", "burnished", "chartreuse", "chiffon", "chocolate", "coral",
        "cornflower", "cornsilk", "cream", "cyan", "dark", "deep", "dim", "dodger", "drab", "firebrick", "floral",
        "forest", "frosted", "gainsboro", "ghost", "goldenrod", "green", "grey", "honeydew", "hot", "indian", "ivory",
        "khaki", "lace", "lavender", "lawn", "lemon", "light", "lime", "linen", "magenta", "maroon", "medium",
        "metallic", "midnight", "mint", "misty", "moccasin", "navajo", "navy", "olive", "orange", "orchid", "pale",
        "papaya", "peach", "peru", "pink", "plum", "powder", "puff", "purple", "red", "rose", "rosy", "royal",
        "saddle", "salmon", "sandy", "seashell", "sienna", "sky", "slate", "smoke", "snow", "spring", "steel", "tan",
        "thistle", "tomato", "turquoise", "violet", "wheat", "white", "yellow"};
    static final String[] TYPE_SIZES = {"STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"};
    static final String[] TYPE_FINISHES = {"ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"};
    static final String[] TYPE_MATERIALS = {"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"};
    static final String[] CONTAINER_SIZES = {"SM", "LG", "MED", "JUMBO", "WRAP"};
    static final String[] CONTAINER_KINDS = {"CASE", "BOX", "BAG", "JAR", "PKG", "PACK", "CAN", "DRUM"};
    static final String[] SEGMENTS = {"AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"};
    static final String[] PRIORITIES = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"};
    static final String[] INSTRUCTIONS = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
    static final String[] SHIP_MODES = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
    private static final String ADDRESS_CHARS =
            "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ,.";

    private final double scaleFactor;
    private final int parts;
    private final int suppliers;
    private final int customers;
    private final int orders;
    private final int clerks;
    private final Set<Integer> complaints;
    private final Set<Integer> recommends;

    public TpchData(double scaleFactor) {
        if (!(scaleFactor > 0)) {
            throw new IllegalArgumentException("scale factor must be positive: " + scaleFactor);
        }
        this.scaleFactor = scaleFactor;
        parts = scaled(200_000);
        suppliers = scaled(10_000);
        customers = scaled(150_000);
        orders = scaled(1_500_000);
        clerks = scaled(1_000);
        SplittableRandom random = random(TpchTable.SUPPLIER, 0, 1);
        int marked = Math.max(1, (int) Math.round(scaleFactor * 5));
        Set<Integer> chosen = new HashSet<>();
        complaints = new HashSet<>();
        recommends = new HashSet<>();
        while (complaints.size() < Math.min(marked, suppliers / 2)) {
            int key = 1 + random.nextInt(suppliers);
            if (chosen.add(key)) {
                complaints.add(key);
            }
        }
        while (recommends.size() < Math.min(marked, suppliers / 2)) {
            int key = 1 + random.nextInt(suppliers);
            if (chosen.add(key)) {
                recommends.add(key);
            }
        }
    }

    private int scaled(int perScaleFactor) {
        return (int) Math.max(1, Math.floor(perScaleFactor * scaleFactor + 1e-9));
    }

    public double scaleFactor() {
        return scaleFactor;
    }

    @Override
    public List<TpchTable> tables() {
        return List.of(TpchTable.values());
    }

    /** How many units {@link #generate} takes for the table: rows, parts for PARTSUPP, orders for LINEITEM. */
    @Override
    public long units(TpchTable table) {
        return switch (table) {
            case REGION -> REGIONS.length;
            case NATION -> NATIONS.length;
            case PART, PARTSUPP -> parts;
            case SUPPLIER -> suppliers;
            case CUSTOMER -> customers;
            case ORDERS, LINEITEM -> orders;
        };
    }

    /** The table's rows: exact except for LINEITEM, where it is the expected count (four lines per order). */
    @Override
    public long approximateRows(TpchTable table) {
        return switch (table) {
            case PARTSUPP -> 4L * parts;
            case LINEITEM -> 4L * orders;
            default -> units(table);
        };
    }

    /** The rows of units [from, to) of the table, in primary-key order. */
    @Override
    public void generate(TpchTable table, long from, long to, Consumer<Object[]> sink) {
        for (long unit = from; unit < to; unit++) {
            int index = Math.toIntExact(unit);
            switch (table) {
                case REGION -> sink.accept(new Object[] {index, REGIONS[index],
                    TpchText.text(random(table, index), 31, 115)});
                case NATION -> sink.accept(new Object[] {index, NATIONS[index], NATION_REGIONS[index],
                    TpchText.text(random(table, index), 31, 114)});
                case PART -> sink.accept(part(index + 1));
                case SUPPLIER -> sink.accept(supplier(index + 1));
                case PARTSUPP -> partSupps(index + 1, sink);
                case CUSTOMER -> sink.accept(customer(index + 1));
                case ORDERS -> order(index, null, sink);
                case LINEITEM -> order(index, sink, null);
                default -> throw new IllegalArgumentException(table.name());
            }
        }
    }

    private static SplittableRandom random(TpchTable table, long unit) {
        return random(table, unit, 0);
    }

    /** The random stream of one unit of a table; units with several streams tell them apart by {@code stream}. */
    private static SplittableRandom random(TpchTable table, long unit, int stream) {
        return UnitRandom.of(SEED, table.ordinal(), unit, stream);
    }

    private static int uniform(SplittableRandom random, int min, int max) {
        return min + random.nextInt(max - min + 1);
    }

    private static BigDecimal money(long cents) {
        return BigDecimal.valueOf(cents, 2);
    }

    /** P_RETAILPRICE in cents, clause 4.2.3. */
    static long retailPriceCents(int partKey) {
        return 90_000 + (partKey / 10) % 20_001 + 100L * (partKey % 1_000);
    }

    private Object[] part(int key) {
        SplittableRandom random = random(TpchTable.PART, key);
        StringBuilder name = new StringBuilder();
        int[] picked = new int[5];
        for (int i = 0; i < 5; i++) {
            int color;
            boolean repeated;
            do {
                color = random.nextInt(COLORS.length);
                repeated = false;
                for (int j = 0; j < i; j++) {
                    repeated |= picked[j] == color;
                }
            } while (repeated);
            picked[i] = color;
            name.append(i > 0 ? " " : "").append(COLORS[color]);
        }
        int manufacturer = uniform(random, 1, 5);
        int brand = uniform(random, 1, 5);
        String type = TYPE_SIZES[random.nextInt(TYPE_SIZES.length)] + " "
                + TYPE_FINISHES[random.nextInt(TYPE_FINISHES.length)] + " "
                + TYPE_MATERIALS[random.nextInt(TYPE_MATERIALS.length)];
        int size = uniform(random, 1, 50);
        String container = CONTAINER_SIZES[random.nextInt(CONTAINER_SIZES.length)] + " "
                + CONTAINER_KINDS[random.nextInt(CONTAINER_KINDS.length)];
        return new Object[] {key, name.toString(), "Manufacturer#" + manufacturer,
            "Brand#" + manufacturer + brand, type, size, container, money(retailPriceCents(key)),
            TpchText.text(random, 5, 22)};
    }

    /**
     * The i-th (0..3) supplier of a part: dbgen's {@code (p + i * (S / 4 + (p - 1) / S)) % S + 1}, moved on to the
     * next supplier not already taken by a lower i when the formula repeats one (only below scale factor 0.01).
     */
    int supplierOf(int partKey, int i) {
        int[] taken = new int[i + 1];
        for (int j = 0; j <= i; j++) {
            int candidate = (int) ((partKey + (long) j * (suppliers / 4 + (partKey - 1) / suppliers)) % suppliers) + 1;
            boolean repeated;
            do {
                repeated = false;
                for (int k = 0; k < j; k++) {
                    if (taken[k] == candidate) {
                        repeated = true;
                        candidate = candidate % suppliers + 1;
                        break;
                    }
                }
            } while (repeated && suppliers > j);
            taken[j] = candidate;
        }
        return taken[i];
    }

    private void partSupps(int partKey, Consumer<Object[]> sink) {
        SplittableRandom random = random(TpchTable.PARTSUPP, partKey);
        for (int i = 0; i < 4; i++) {
            sink.accept(new Object[] {partKey, supplierOf(partKey, i), uniform(random, 1, 9_999),
                money(uniform(random, 100, 100_000)), TpchText.text(random, 49, 198)});
        }
    }

    private static String address(SplittableRandom random) {
        int length = uniform(random, 10, 40);
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = ADDRESS_CHARS.charAt(random.nextInt(ADDRESS_CHARS.length()));
        }
        return new String(chars);
    }

    private static String phone(SplittableRandom random, int nation) {
        return String.format("%02d-%03d-%03d-%04d", nation + 10, uniform(random, 100, 999), uniform(random, 100, 999),
                uniform(random, 1_000, 9_999));
    }

    private Object[] supplier(int key) {
        SplittableRandom random = random(TpchTable.SUPPLIER, key);
        String address = address(random);
        int nation = random.nextInt(NATIONS.length);
        String phone = phone(random, nation);
        long balance = uniform(random, -99_999, 999_999);
        String comment = TpchText.text(random, 25, 100);
        if (complaints.contains(key) || recommends.contains(key)) {
            comment = betterBusinessBureau(random, comment, complaints.contains(key) ? "Complaints" : "Recommends");
        }
        return new Object[] {key, String.format("Supplier#%09d", key), address, nation, phone, money(balance), comment};
    }

    /** dbgen's supplier comment: "Customer " then, after some noise, the kind, written over the comment. */
    private static String betterBusinessBureau(SplittableRandom random, String comment, String kind) {
        String customer = "Customer ";
        int room = comment.length() - customer.length() - kind.length();
        int noise = uniform(random, 0, room);
        int offset = uniform(random, 0, room - noise);
        StringBuilder text = new StringBuilder(comment);
        text.replace(offset, offset + customer.length(), customer);
        int at = offset + customer.length() + noise;
        text.replace(at, at + kind.length(), kind);
        return text.toString();
    }

    private Object[] customer(int key) {
        SplittableRandom random = random(TpchTable.CUSTOMER, key);
        String address = address(random);
        int nation = random.nextInt(NATIONS.length);
        String phone = phone(random, nation);
        long balance = uniform(random, -99_999, 999_999);
        String segment = SEGMENTS[random.nextInt(SEGMENTS.length)];
        return new Object[] {key, String.format("Customer#%09d", key), address, nation, phone, money(balance), segment,
            TpchText.text(random, 29, 116)};
    }

    /** O_ORDERKEY of the index-th order (0-based): the first 8 of every 32 keys. */
    static int orderKey(int index) {
        return (index / 8) * 32 + index % 8 + 1;
    }

    /** One order and its lines; either sink may be null. */
    private void order(int index, Consumer<Object[]> lineSink, Consumer<Object[]> orderSink) {
        SplittableRandom random = random(TpchTable.ORDERS, index);
        SplittableRandom comments = random(TpchTable.ORDERS, index, 1);
        int orderKey = orderKey(index);
        LocalDate orderDate = START_DATE.plusDays(random.nextInt((int) (END_DATE.toEpochDay() - 151
                - START_DATE.toEpochDay() + 1)));
        int customer = uniform(random, 1, customers);
        int delta = 1;
        while (customer % 3 == 0) {
            customer = Math.min(customer + delta, customers);
            delta = -delta;
            if (customers < 3) {
                customer = 1;
            }
        }
        String priority = PRIORITIES[random.nextInt(PRIORITIES.length)];
        String clerk = String.format("Clerk#%09d", uniform(random, 1, clerks));
        int lines = uniform(random, 1, 7);
        long totalCents = 0;
        int shipped = 0;
        List<Object[]> lineRows = lineSink == null ? null : new ArrayList<>(lines);
        for (int line = 1; line <= lines; line++) {
            int partKey = uniform(random, 1, parts);
            int supplierKey = supplierOf(partKey, random.nextInt(4));
            int quantity = uniform(random, 1, 50);
            long extendedCents = quantity * retailPriceCents(partKey);
            int discount = uniform(random, 0, 10);
            int tax = uniform(random, 0, 8);
            LocalDate shipDate = orderDate.plusDays(uniform(random, 1, 121));
            LocalDate commitDate = orderDate.plusDays(uniform(random, 30, 90));
            LocalDate receiptDate = shipDate.plusDays(uniform(random, 1, 30));
            String returnFlag = receiptDate.isAfter(CURRENT_DATE) ? "N" : random.nextBoolean() ? "R" : "A";
            String lineStatus = shipDate.isAfter(CURRENT_DATE) ? "O" : "F";
            shipped += lineStatus.equals("F") ? 1 : 0;
            String instruction = INSTRUCTIONS[random.nextInt(INSTRUCTIONS.length)];
            String mode = SHIP_MODES[random.nextInt(SHIP_MODES.length)];
            // dbgen's integer arithmetic in pennies, truncating
            totalCents += extendedCents * (100 - discount) / 100 * (100 + tax) / 100;
            if (lineSink != null) {
                lineRows.add(new Object[] {orderKey, partKey, supplierKey, line, money(quantity * 100L),
                    money(extendedCents), money(discount), money(tax), returnFlag, lineStatus, shipDate, commitDate,
                    receiptDate, instruction, mode, TpchText.text(comments, 10, 43)});
            }
        }
        if (lineSink != null) {
            lineRows.forEach(lineSink);
        }
        if (orderSink != null) {
            String status = shipped == lines ? "F" : shipped == 0 ? "O" : "P";
            orderSink.accept(new Object[] {orderKey, customer, status, money(totalCents), orderDate, priority, clerk, 0,
                TpchText.text(random(TpchTable.ORDERS, index, 2), 19, 78)});
        }
    }
}
