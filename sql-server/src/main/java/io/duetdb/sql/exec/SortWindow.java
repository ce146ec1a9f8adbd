package io.duetdb.sql.exec;

import org.apache.calcite.rel.core.Sort;

/** The rows a sort gives: from {@code offset}, at most {@code fetch} of them (Long.MAX_VALUE without a LIMIT). */
record SortWindow(long offset, long fetch) {
    SortWindow {
        if (offset < 0 || fetch < 0) {
            throw new IllegalArgumentException("offset " + offset + " and fetch " + fetch + " must not be negative");
        }
    }

    static SortWindow of(Sort sort, ExpressionCompiler compiler) {
        long offset = sort.offset == null ? 0 : Values.toLong(compiler.compile(sort.offset).evaluate(new Object[0]));
        long fetch = sort.fetch == null ? Long.MAX_VALUE
                : Values.toLong(compiler.compile(sort.fetch).evaluate(new Object[0]));
        return new SortWindow(Math.max(0, offset), Math.max(0, fetch));
    }

    boolean limited() {
        return fetch != Long.MAX_VALUE;
    }

    /** The rows a top N keeps: offset + fetch. */
    long kept() {
        return fetch > Long.MAX_VALUE - offset ? Long.MAX_VALUE : offset + fetch;
    }
}
