package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * An operator's rows a batch at a time, pulled by its consumer: only blocking operators (a hash join's build side,
 * aggregation, sort) hold their input, so a large scan streams through filters, projections and a join's probe
 * side. Closing a stream closes its inputs and stops reads still under way.
 */
interface RowStream extends AutoCloseable {
    /** The next batch (possibly empty), or null when there are no more rows. */
    List<Object[]> next();

    @Override
    default void close() {
    }

    /** The rows of a list, as one batch. */
    static RowStream of(List<Object[]> rows) {
        requireNonNull(rows, "rows is null");
        return new RowStream() {
            private boolean done;

            @Override
            public List<Object[]> next() {
                if (done) {
                    return null;
                }
                done = true;
                return rows;
            }
        };
    }

    static RowStream empty() {
        return of(List.of());
    }

    /** This stream with {@code function} applied to each batch. */
    default RowStream map(UnaryOperator<List<Object[]>> function) {
        requireNonNull(function, "function is null");
        RowStream input = this;
        return new RowStream() {
            @Override
            public List<Object[]> next() {
                List<Object[]> batch = input.next();
                return batch == null ? null : function.apply(batch);
            }

            @Override
            public void close() {
                input.close();
            }
        };
    }

    /** Every remaining row, after which the stream is closed. */
    static List<Object[]> drain(RowStream stream) {
        try (stream) {
            List<Object[]> first = stream.next();
            if (first == null) {
                return new ArrayList<>();
            }
            List<Object[]> rows = new ArrayList<>(first);
            for (List<Object[]> batch = stream.next(); batch != null; batch = stream.next()) {
                rows.addAll(batch);
            }
            return rows;
        }
    }
}
