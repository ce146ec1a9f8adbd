package io.duetdb.sql.catalog;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * How a DDL step's wait for the other SQL servers ended: {@code confirmed} when every other live registered
 * server reported the new schema version ({@code servers} of them), otherwise the full wait of two leases ran out and
 * {@code lagging} names the servers that had not confirmed.
 */
public record SchemaSyncResult(boolean confirmed, int servers, List<String> lagging) {
    public SchemaSyncResult {
        lagging = List.copyOf(requireNonNull(lagging, "lagging is null"));
    }
}
