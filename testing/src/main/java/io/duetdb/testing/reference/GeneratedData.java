package io.duetdb.testing.reference;

import java.util.List;
import java.util.function.Consumer;

/**
 * A deterministic data set that generates its tables' rows in units (a row, or a group of rows that belong
 * together such as an order's lines), so that any range of units can be generated alone: in parallel, or
 * streamed without holding a table in memory. Values are Integer, BigDecimal, String, LocalDate, LocalDateTime
 * or null.
 */
public interface GeneratedData<T extends Table> {
    /** The tables in the order they are created and loaded. */
    List<T> tables();

    /** How many units {@link #generate} takes for the table. */
    long units(T table);

    /** The table's rows: exact where the units are rows, the expected count otherwise. */
    long approximateRows(T table);

    /** The rows of units [from, to) of the table, in primary-key order. */
    void generate(T table, long from, long to, Consumer<Object[]> sink);

    /** Every row of the table, in primary-key order. */
    default void generate(T table, Consumer<Object[]> sink) {
        generate(table, 0, units(table), sink);
    }

    /** The same data with only {@code kept} of its tables (in that order). */
    default GeneratedData<T> restrictedTo(List<T> kept) {
        GeneratedData<T> all = this;
        List<T> tables = List.copyOf(kept);
        return new GeneratedData<>() {
            @Override
            public List<T> tables() {
                return tables;
            }

            @Override
            public long units(T table) {
                return all.units(table);
            }

            @Override
            public long approximateRows(T table) {
                return all.approximateRows(table);
            }

            @Override
            public void generate(T table, long from, long to, Consumer<Object[]> sink) {
                all.generate(table, from, to, sink);
            }
        };
    }
}
