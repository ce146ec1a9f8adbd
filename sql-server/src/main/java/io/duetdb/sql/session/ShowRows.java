package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** What a SHOW statement lists: its column labels and rows (text, whole numbers or nulls), before LIKE or WHERE. */
record ShowRows(List<String> labels, List<Object[]> rows) {
    ShowRows {
        labels = List.copyOf(requireNonNull(labels, "labels is null"));
        requireNonNull(rows, "rows is null");
    }
}
