package io.duetdb.sql.server;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.sql.catalog.AuthenticationPlugin;

/** A sql-server's settings, with TiDB's default ports. */
public final class SqlServerConfig {
    public static final int DEFAULT_PORT = 4000;
    public static final int DEFAULT_STATUS_PORT = 10080;
    public static final long DEFAULT_MAX_ALLOWED_PACKET = 64L * 1024 * 1024;
    public static final Duration DEFAULT_SCHEMA_LEASE = Duration.ofMillis(500);
    public static final int DEFAULT_BACKFILL_BATCH_SIZE = 256;

    private List<HostAndPort> pd = List.of(new HostAndPort("127.0.0.1", 2379));
    private HostAndPort address = new HostAndPort("127.0.0.1", DEFAULT_PORT);
    private HostAndPort statusAddress = new HostAndPort("127.0.0.1", DEFAULT_STATUS_PORT);
    private long maxAllowedPacket = DEFAULT_MAX_ALLOWED_PACKET;
    private Duration schemaLease = DEFAULT_SCHEMA_LEASE;
    private boolean tls = true;
    private java.nio.file.Path tlsCertificate;
    private java.nio.file.Path tlsKey;
    private AuthenticationPlugin defaultAuthenticationPlugin = AuthenticationPlugin.MYSQL_NATIVE_PASSWORD;
    private int backfillBatchSize = DEFAULT_BACKFILL_BATCH_SIZE;
    private Duration droppedTableCheckInterval = Duration.ofSeconds(30);

    /** How often the server looks for dropped tables whose data the GC safe point lets it destroy. */
    public Duration droppedTableCheckInterval() {
        return droppedTableCheckInterval;
    }

    public SqlServerConfig setDroppedTableCheckInterval(Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("dropped-table-check-interval must be positive");
        }
        this.droppedTableCheckInterval = interval;
        return this;
    }

    /** The rows ADD INDEX's backfill indexes per transaction (TiDB's tidb_ddl_reorg_batch_size). */
    public int backfillBatchSize() {
        return backfillBatchSize;
    }

    public SqlServerConfig setBackfillBatchSize(int rows) {
        if (rows < 1) {
            throw new IllegalArgumentException("backfill-batch-size must be at least 1");
        }
        this.backfillBatchSize = rows;
        return this;
    }

    /**
     * The plugin the greeting proposes and CREATE USER ... IDENTIFIED BY uses without WITH (MySQL's
     * default_authentication_plugin). mysql_native_password by default: every MySQL and MariaDB client logs in
     * with it without TLS, while a caching_sha2_password account's first login on each server needs TLS or an
     * RSA key exchange that clients must be told to allow (Connector/J's allowPublicKeyRetrieval).
     */
    public AuthenticationPlugin defaultAuthenticationPlugin() {
        return defaultAuthenticationPlugin;
    }

    public SqlServerConfig setDefaultAuthenticationPlugin(AuthenticationPlugin plugin) {
        this.defaultAuthenticationPlugin = requireNonNull(plugin, "plugin is null");
        return this;
    }

    /** Whether clients may switch to TLS (with a generated certificate unless one is configured). */
    public boolean tls() {
        return tls;
    }

    public SqlServerConfig setTls(boolean tls) {
        this.tls = tls;
        return this;
    }

    public java.nio.file.Path tlsCertificate() {
        return tlsCertificate;
    }

    public java.nio.file.Path tlsKey() {
        return tlsKey;
    }

    /** A PEM certificate chain and its PKCS#8 key; both or neither. */
    public SqlServerConfig setTlsCertificate(java.nio.file.Path certificate, java.nio.file.Path key) {
        if ((certificate == null) != (key == null)) {
            throw new IllegalArgumentException("tls-certificate and tls-key go together");
        }
        this.tlsCertificate = certificate;
        this.tlsKey = key;
        return this;
    }

    /** How long a loaded schema stays valid; multi-state DDL waits two leases per state. */
    public Duration schemaLease() {
        return schemaLease;
    }

    public SqlServerConfig setSchemaLease(Duration schemaLease) {
        if (schemaLease.toMillis() < 10) {
            throw new IllegalArgumentException("schema-lease must be at least 10ms");
        }
        this.schemaLease = schemaLease;
        return this;
    }

    public List<HostAndPort> pd() {
        return pd;
    }

    public SqlServerConfig setPd(List<HostAndPort> pd) {
        this.pd = List.copyOf(requireNonNull(pd, "pd is null"));
        return this;
    }

    public HostAndPort address() {
        return address;
    }

    public SqlServerConfig setAddress(HostAndPort address) {
        this.address = requireNonNull(address, "address is null");
        return this;
    }

    public HostAndPort statusAddress() {
        return statusAddress;
    }

    public SqlServerConfig setStatusAddress(HostAndPort statusAddress) {
        this.statusAddress = requireNonNull(statusAddress, "statusAddress is null");
        return this;
    }

    public long maxAllowedPacket() {
        return maxAllowedPacket;
    }

    public SqlServerConfig setMaxAllowedPacket(long maxAllowedPacket) {
        if (maxAllowedPacket < 1024) {
            throw new IllegalArgumentException("max-allowed-packet must be at least 1024 bytes");
        }
        this.maxAllowedPacket = maxAllowedPacket;
        return this;
    }
}
