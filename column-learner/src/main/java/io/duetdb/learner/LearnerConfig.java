package io.duetdb.learner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.duetdb.common.config.DataSize;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.net.ListenAddresses;

/**
 * One column learner's configuration. Field initialisers are the defaults (TiFlash's ports: service 3930, status
 * 20292); TOML keys are the kebab-case field names (docs/configuration.md); command-line flags override both.
 */
public final class LearnerConfig {
    public static final int DEFAULT_PORT = 3930;
    public static final int DEFAULT_RAFT_PORT = 3931;
    public static final int DEFAULT_STATUS_PORT = 20292;
    /** The store label that makes placement give a store learners only. */
    public static final String ENGINE_LABEL = "engine";
    public static final String COLUMNAR_ENGINE = "columnar";

    private Path dataDir = Path.of("data", "learner-1");
    /** Placement members' client addresses. */
    private List<HostAndPort> pd = List.of(new HostAndPort("127.0.0.1", 2379));
    /** gRPC for region leaders (replica creation) and readers (coprocessor). */
    private HostAndPort address = new HostAndPort("127.0.0.1", DEFAULT_PORT);
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private HostAndPort advertiseAddress;
    /** The Raft server on which this learner listens to every region it replicates. */
    private HostAndPort raftAddress = new HostAndPort("127.0.0.1", DEFAULT_RAFT_PORT);
    private HostAndPort statusAddress = new HostAndPort("127.0.0.1", DEFAULT_STATUS_PORT);
    /** Labels besides engine = "columnar", which every learner carries. */
    private Map<String, String> labels = new LinkedHashMap<>();
    private Duration storeHeartbeatInterval = Duration.ofSeconds(10);
    private Duration replicaGcInterval = Duration.ofSeconds(30);
    /** How long a read waits for its replica to catch up with the leader before it fails as busy. */
    private Duration readWaitTimeout = Duration.ofSeconds(10);
    /** How often the learner reads placement's GC safe point and drops the row versions below it. */
    private Duration gcRunInterval = Duration.ofMinutes(10);
    /** A replica's delta is merged into column packs once it holds this many row versions. */
    private long deltaMergeRows = 8192;
    /**
     * ... or, for a replica with a larger stable layer, this fraction of its stable versions: merging rewrites every
     * pack the delta touches, so a fixed threshold would rewrite a large region for each few thousand updates.
     */
    private double deltaMergeRatio = 0.125;
    /** How often the learner looks for deltas to merge. */
    private Duration mergeCheckInterval = Duration.ofSeconds(2);
    /** How often the learner checks the catalog's schema version (regular schema sync). */
    private Duration schemaSyncInterval = Duration.ofSeconds(10);
    /** Raft log entries applied between snapshots (saves of a replica's files and log purges). */
    private long raftSnapshotThreshold = 10_000;
    private DataSize coprocessorMemory = DataSize.ofMebibytes(1024);

    public LearnerConfig validate() {
        Set<HostAndPort> own = new HashSet<>(List.of(address, raftAddress, statusAddress));
        if (own.size() != 3 && address.port() != 0) {
            fail("address, raft-address and status-address must differ");
        }
        if (ListenAddresses.isWildcard(advertisedAddress())) {
            fail("address " + address + " listens on every interface: set advertise-address to the address others should use");
        }
        if (pd.isEmpty()) {
            fail("pd must list at least one placement member");
        }
        for (Duration duration : List.of(storeHeartbeatInterval, replicaGcInterval, readWaitTimeout, gcRunInterval,
                mergeCheckInterval, schemaSyncInterval)) {
            if (duration.isZero() || duration.isNegative()) {
                fail("durations must be positive");
            }
        }
        if (deltaMergeRows < 1) {
            fail("delta-merge-rows must be at least 1");
        }
        if (!(deltaMergeRatio >= 0 && deltaMergeRatio <= 10)) {
            fail("delta-merge-ratio must be between 0 and 10");
        }
        if (raftSnapshotThreshold < 100) {
            fail("raft-snapshot-threshold must be at least 100");
        }
        if (coprocessorMemory.bytes() < (16 << 20)) {
            fail("coprocessor-memory must be at least 16MiB");
        }
        String engine = labels.get(ENGINE_LABEL);
        if (engine != null && !engine.equals(COLUMNAR_ENGINE)) {
            fail("a learner's engine label is always \"" + COLUMNAR_ENGINE + "\", not \"" + engine + "\"");
        }
        return this;
    }

    private static void fail(String message) {
        throw new DuetException(ErrorCode.INVALID_CONFIG, message);
    }

    public HostAndPort advertisedAddress() {
        return advertiseAddress != null ? advertiseAddress : address;
    }

    public HostAndPort advertisedRaftAddress() {
        return ListenAddresses.advertised(raftAddress, advertisedAddress());
    }

    public HostAndPort advertisedStatusAddress() {
        return ListenAddresses.advertised(statusAddress, advertisedAddress());
    }

    /** The labels the learner registers with: the configured ones and engine = "columnar". */
    public Map<String, String> storeLabels() {
        Map<String, String> all = new LinkedHashMap<>(labels);
        all.put(ENGINE_LABEL, COLUMNAR_ENGINE);
        return all;
    }

    public Path dataDir() {
        return dataDir;
    }

    public LearnerConfig setDataDir(Path dataDir) {
        this.dataDir = dataDir;
        return this;
    }

    public List<HostAndPort> pd() {
        return pd;
    }

    public LearnerConfig setPd(List<HostAndPort> pd) {
        this.pd = List.copyOf(pd);
        return this;
    }

    public HostAndPort address() {
        return address;
    }

    public LearnerConfig setAddress(HostAndPort address) {
        this.address = address;
        return this;
    }

    public LearnerConfig setAdvertiseAddress(HostAndPort advertiseAddress) {
        this.advertiseAddress = advertiseAddress;
        return this;
    }

    public HostAndPort raftAddress() {
        return raftAddress;
    }

    public LearnerConfig setRaftAddress(HostAndPort raftAddress) {
        this.raftAddress = raftAddress;
        return this;
    }

    public HostAndPort statusAddress() {
        return statusAddress;
    }

    public LearnerConfig setStatusAddress(HostAndPort statusAddress) {
        this.statusAddress = statusAddress;
        return this;
    }

    public Map<String, String> labels() {
        return labels;
    }

    public LearnerConfig setLabels(Map<String, String> labels) {
        this.labels = new LinkedHashMap<>(labels);
        return this;
    }

    public Duration storeHeartbeatInterval() {
        return storeHeartbeatInterval;
    }

    public LearnerConfig setStoreHeartbeatInterval(Duration storeHeartbeatInterval) {
        this.storeHeartbeatInterval = storeHeartbeatInterval;
        return this;
    }

    public Duration replicaGcInterval() {
        return replicaGcInterval;
    }

    public LearnerConfig setReplicaGcInterval(Duration replicaGcInterval) {
        this.replicaGcInterval = replicaGcInterval;
        return this;
    }

    public Duration readWaitTimeout() {
        return readWaitTimeout;
    }

    public LearnerConfig setReadWaitTimeout(Duration readWaitTimeout) {
        this.readWaitTimeout = readWaitTimeout;
        return this;
    }

    public long deltaMergeRows() {
        return deltaMergeRows;
    }

    public LearnerConfig setDeltaMergeRows(long deltaMergeRows) {
        this.deltaMergeRows = deltaMergeRows;
        return this;
    }

    public double deltaMergeRatio() {
        return deltaMergeRatio;
    }

    public LearnerConfig setDeltaMergeRatio(double deltaMergeRatio) {
        this.deltaMergeRatio = deltaMergeRatio;
        return this;
    }

    public Duration mergeCheckInterval() {
        return mergeCheckInterval;
    }

    public LearnerConfig setMergeCheckInterval(Duration mergeCheckInterval) {
        this.mergeCheckInterval = mergeCheckInterval;
        return this;
    }

    public Duration schemaSyncInterval() {
        return schemaSyncInterval;
    }

    public LearnerConfig setSchemaSyncInterval(Duration schemaSyncInterval) {
        this.schemaSyncInterval = schemaSyncInterval;
        return this;
    }

    public Duration gcRunInterval() {
        return gcRunInterval;
    }

    public LearnerConfig setGcRunInterval(Duration gcRunInterval) {
        this.gcRunInterval = gcRunInterval;
        return this;
    }

    public long raftSnapshotThreshold() {
        return raftSnapshotThreshold;
    }

    public LearnerConfig setRaftSnapshotThreshold(long raftSnapshotThreshold) {
        this.raftSnapshotThreshold = raftSnapshotThreshold;
        return this;
    }

    public DataSize coprocessorMemory() {
        return coprocessorMemory;
    }

    public LearnerConfig setCoprocessorMemory(DataSize coprocessorMemory) {
        this.coprocessorMemory = coprocessorMemory;
        return this;
    }
}
