package io.duetdb.spark.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.placement.GrpcPlacementClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.placement.PlacementClientConfig;
import io.duetdb.client.txn.TxnClient;

/**
 * One placement client and one transaction client per cluster per JVM. Spark creates catalogs, scans and readers
 * from serialized descriptions, on the driver and in executors, and never tells them when the application ends: a
 * JVM-wide registry is the only place their connections (channels, the region cache, timestamp batching) can be
 * shared, as TiSpark's TiSession was. Connections close when the JVM exits.
 */
public final class ClusterConnections {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterConnections.class);
    private static final ConcurrentMap<String, Connection> CONNECTIONS = new ConcurrentHashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ClusterConnections::closeAll, "duet-spark-connections-close"));
    }

    private ClusterConnections() {
    }

    /** The connection to the cluster {@code options} name, opened on first use. */
    public static Connection of(ConnectorOptions options) {
        return CONNECTIONS.computeIfAbsent(options.placement(), key -> {
            PlacementClient placement = new GrpcPlacementClient(PlacementClientConfig.of(options.endpoints()), "spark");
            LOG.info("connected to DuetDB placement at {}", key);
            return new Connection(placement, new TxnClient(placement));
        });
    }

    private static void closeAll() {
        for (Connection connection : CONNECTIONS.values()) {
            try {
                connection.transactions().close();
                connection.placement().close();
            } catch (RuntimeException e) {
                LOG.debug("closing a DuetDB connection failed", e);
            }
        }
        CONNECTIONS.clear();
    }

    /** A cluster's clients. */
    public record Connection(PlacementClient placement, TxnClient transactions) {
    }
}
