package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

/**
 * A sort with a limit over a table scan (through projections and one filter) by ascending columns of the scan: if
 * the scan's path gives its rows in that order, the first {@code rows} matching rows are all the sort keeps, so a
 * locking read need lock no more (TiDB locks the rows its SelectLock passes, above the limit).
 *
 * @param scan the scan under the sort
 * @param columns the sort's keys as the scan's column positions, in order
 * @param rows the rows the sort keeps (offset plus fetch)
 */
record OrderedLimit(TableScan scan, List<Integer> columns, long rows) {
    OrderedLimit {
        requireNonNull(scan, "scan is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
    }

    static Optional<OrderedLimit> of(Sort sort, long rows) {
        List<Integer> keys = new ArrayList<>();
        for (RelFieldCollation collation : sort.getCollation().getFieldCollations()) {
            if (collation.getDirection() != RelFieldCollation.Direction.ASCENDING) {
                return Optional.empty();
            }
            keys.add(collation.getFieldIndex());
        }
        if (keys.isEmpty()) {
            return Optional.empty();
        }
        RelNode input = sort.getInput();
        while (input instanceof Project project) {
            List<Integer> mapped = new ArrayList<>();
            for (int key : keys) {
                RexNode expression = project.getProjects().get(key);
                if (!(expression instanceof RexInputRef reference)) {
                    return Optional.empty();
                }
                mapped.add(reference.getIndex());
            }
            keys = mapped;
            input = project.getInput();
        }
        if (input instanceof Filter filter) {
            input = filter.getInput();
        }
        return input instanceof TableScan scan ? Optional.of(new OrderedLimit(scan, keys, rows)) : Optional.empty();
    }
}
