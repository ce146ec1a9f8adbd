package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.calcite.rel.core.JoinRelType;

/**
 * A join of two inputs that both arrive ascending by their join key (records scanned in clustered-key order): the
 * left rows walk forward, the right side moves with them, and only the right rows of the current key are held.
 * Candidate pairs must satisfy the whole join condition. NULL keys match nothing. Inner, left outer and semi joins.
 */
final class MergeJoin implements RowStream {
    private static final int BATCH_ROWS = 1024;

    private final JoinRelType type;
    private final int leftKey;
    private final int rightKey;
    private final int rightWidth;
    private final RowExpression condition;
    private final Cursor left;
    private final Cursor right;
    private final SessionFunctions session;
    private final List<Object[]> run = new ArrayList<>();
    private Object runKey;
    private Object lastLeftKey;
    private Object lastRightKey;

    MergeJoin(JoinRelType type, int leftKey, int rightKey, int rightWidth, RowExpression condition, RowStream left,
            RowStream right, SessionFunctions session) {
        if (type != JoinRelType.INNER && type != JoinRelType.LEFT && type != JoinRelType.SEMI) {
            throw new IllegalArgumentException("a merge join does not do " + type + " joins");
        }
        this.type = type;
        this.leftKey = leftKey;
        this.rightKey = rightKey;
        this.rightWidth = rightWidth;
        this.condition = requireNonNull(condition, "condition is null");
        this.left = new Cursor(requireNonNull(left, "left is null"));
        this.right = new Cursor(requireNonNull(right, "right is null"));
        this.session = requireNonNull(session, "session is null");
    }

    static boolean supports(JoinRelType type) {
        return type == JoinRelType.INNER || type == JoinRelType.LEFT || type == JoinRelType.SEMI;
    }

    @Override
    public List<Object[]> next() {
        List<Object[]> rows = new ArrayList<>();
        Object[] leftRow;
        while (rows.size() < BATCH_ROWS && (leftRow = left.take()) != null) {
            Object key = leftRow[leftKey];
            if (key != null) {
                lastLeftKey = checkAscending(lastLeftKey, key, "left");
            }
            boolean matched = false;
            for (Object[] rightRow : key == null ? List.<Object[]>of() : runOf(key)) {
                Object[] combined = Arrays.copyOf(leftRow, leftRow.length + rightWidth);
                System.arraycopy(rightRow, 0, combined, leftRow.length, rightWidth);
                if (!Boolean.TRUE.equals(Values.truth(condition.evaluate(combined)))) {
                    continue;
                }
                matched = true;
                if (type == JoinRelType.SEMI) {
                    break;
                }
                rows.add(combined);
            }
            if (type == JoinRelType.SEMI && matched) {
                rows.add(leftRow);
            } else if (type == JoinRelType.LEFT && !matched) {
                rows.add(Arrays.copyOf(leftRow, leftRow.length + rightWidth));
            }
        }
        session.checkNotKilled();
        return rows.isEmpty() ? null : rows;
    }

    /** The right rows whose key equals {@code key}; right rows with smaller (or NULL) keys are passed over for good. */
    private List<Object[]> runOf(Object key) {
        if (runKey != null && Values.compare(runKey, key) == 0) {
            return run;
        }
        run.clear();
        runKey = null;
        Object[] next;
        while ((next = right.peek()) != null && (next[rightKey] == null || Values.compare(next[rightKey], key) < 0)) {
            noteRight(right.take());
        }
        while ((next = right.peek()) != null && next[rightKey] != null && Values.compare(next[rightKey], key) == 0) {
            run.add(right.take());
            noteRight(next);
        }
        if (!run.isEmpty()) {
            runKey = key;
        }
        return run;
    }

    private void noteRight(Object[] row) {
        if (row[rightKey] != null) {
            lastRightKey = checkAscending(lastRightKey, row[rightKey], "right");
        }
    }

    /** The planner proved the order; a row against it would make the join silently wrong, so it fails instead. */
    private static Object checkAscending(Object previous, Object key, String side) {
        if (previous != null && Values.compare(previous, key) > 0) {
            throw new IllegalStateException("merge join: the " + side + " input is not ascending by its key (" + previous
                    + " before " + key + ")");
        }
        return key;
    }

    @Override
    public void close() {
        left.stream.close();
        right.stream.close();
    }

    /** One row at a time over a stream of batches. */
    private static final class Cursor {
        private final RowStream stream;
        private List<Object[]> batch = List.of();
        private int position;
        private boolean ended;

        Cursor(RowStream stream) {
            this.stream = stream;
        }

        Object[] peek() {
            while (!ended && position >= batch.size()) {
                List<Object[]> next = stream.next();
                if (next == null) {
                    ended = true;
                    batch = List.of();
                } else {
                    batch = next;
                }
                position = 0;
            }
            return ended ? null : batch.get(position);
        }

        Object[] take() {
            Object[] row = peek();
            if (row != null) {
                position++;
            }
            return row;
        }
    }
}
