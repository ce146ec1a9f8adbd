package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import org.apache.spark.sql.connector.read.InputPartition;

/** One region's part of a scan's key range, and the hosts that hold it. */
record RegionPartition(long regionId, byte[] start, byte[] end, String[] hosts) implements InputPartition {
    RegionPartition {
        requireNonNull(start, "start is null");
        requireNonNull(end, "end is null");
        requireNonNull(hosts, "hosts is null");
    }

    @Override
    public String[] preferredLocations() {
        return hosts.clone();
    }
}
