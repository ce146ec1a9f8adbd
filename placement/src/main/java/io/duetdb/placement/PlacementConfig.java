package io.duetdb.placement;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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

/**
 * One placement member's configuration. The field initialisers are the defaults; a TOML file names fields
 * in kebab-case (see docs/configuration.md), and command-line flags override both.
 */
public final class PlacementConfig {
    public static final int DEFAULT_CLIENT_PORT = 2379;
    public static final int DEFAULT_PEER_PORT = 2380;
    public static final int DEFAULT_STATUS_PORT = 2381;

    /** This member's name, unique in the placement cluster and listed in {@code initial-cluster}. */
    private String name = "pd-1";
    private Path dataDir = Path.of("data", "pd-1");
    /** gRPC for clients (TSO, region map, heartbeats). */
    private HostAndPort clientAddress = new HostAndPort("127.0.0.1", DEFAULT_CLIENT_PORT);
    /** The client address other hosts reach this member at, when it differs (listening on 0.0.0.0). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private HostAndPort advertiseClientAddress;
    /** Raft between placement members. */
    private HostAndPort peerAddress = new HostAndPort("127.0.0.1", DEFAULT_PEER_PORT);
    /** HTTP: /metrics and /status. */
    private HostAndPort statusAddress = new HostAndPort("127.0.0.1", DEFAULT_STATUS_PORT);
    /** Every member as {@code name=host:peerPort}; one entry for a single-member cluster. */
    private List<String> initialCluster = List.of("pd-1=127.0.0.1:" + DEFAULT_PEER_PORT);
    /** Lower bound of the Raft election timeout (the upper bound is twice this); bounds the TSO leader lease. */
    private Duration electionTimeout = Duration.ofSeconds(1);
    /** How far ahead of the clock the TSO leader reserves timestamps through Raft. */
    private Duration tsoSaveInterval = Duration.ofSeconds(3);
    private int maxReplicas = 3;
    /** A store that has not sent a heartbeat for this long is disconnected (no new replicas go there). */
    private Duration storeDisconnectTime = Duration.ofSeconds(20);
    /** A store that has not sent a heartbeat for this long is down: its replicas are re-created elsewhere. */
    private Duration maxStoreDownTime = Duration.ofMinutes(30);
    /** How often the balance schedulers run. */
    private Duration scheduleInterval = Duration.ofSeconds(5);
    private int leaderScheduleLimit = 4;
    private int regionScheduleLimit = 2;
    private Duration operatorTimeout = Duration.ofMinutes(10);
    /** Regions smaller than this are merged into a small neighbour on the same stores; 0 turns merging off. */
    private DataSize maxMergeRegionSize = DataSize.ofMebibytes(20);
    /** A region whose range changed (split or merge) less than this long ago is not merged. */
    private Duration splitMergeInterval = Duration.ofHours(1);
    private int mergeScheduleLimit = 8;
    /** How long MVCC versions stay readable after they are overwritten (the GC safe point trails now by this). */
    private Duration gcLifeTime = Duration.ofMinutes(10);
    /** Raft log entries applied between snapshots. */
    private long snapshotThreshold = 10_000;

    /** Checks the values together; throws INVALID_CONFIG with one line naming what is wrong. */
    public PlacementConfig validate() {
        Map<String, HostAndPort> members = initialClusterMembers();
        if (!members.containsKey(name)) {
            fail("initial-cluster " + initialCluster + " does not list this member's name '" + name + "'");
        }
        if (!members.get(name).equals(peerAddress)) {
            fail("initial-cluster lists " + name + " at " + members.get(name) + " but peer-address is " + peerAddress);
        }
        Set<HostAndPort> own = new HashSet<>(List.of(clientAddress, peerAddress, statusAddress));
        if (own.size() != 3 && clientAddress.port() != 0) {
            fail("client-address, peer-address and status-address must differ");
        }
        positive("election-timeout", electionTimeout);
        positive("store-disconnect-time", storeDisconnectTime);
        positive("schedule-interval", scheduleInterval);
        positive("operator-timeout", operatorTimeout);
        positive("gc-life-time", gcLifeTime);
        if (tsoSaveInterval.toMillis() < 100) {
            fail("tso-save-interval must be at least 100ms");
        }
        if (maxStoreDownTime.compareTo(storeDisconnectTime) <= 0) {
            fail("max-store-down-time must exceed store-disconnect-time");
        }
        if (maxReplicas < 1 || maxReplicas > 7) {
            fail("max-replicas must be between 1 and 7");
        }
        if (leaderScheduleLimit < 0 || regionScheduleLimit < 0 || mergeScheduleLimit < 0) {
            fail("schedule limits must not be negative");
        }
        if (snapshotThreshold < 100) {
            fail("snapshot-threshold must be at least 100");
        }
        return this;
    }

    /** {@code initial-cluster} parsed, in order. */
    public Map<String, HostAndPort> initialClusterMembers() {
        Map<String, HostAndPort> members = new LinkedHashMap<>();
        for (String entry : initialCluster) {
            int equals = entry.indexOf('=');
            if (equals <= 0) {
                fail("initial-cluster entry '" + entry + "' is not name=host:port");
            }
            HostAndPort address;
            try {
                address = HostAndPort.parse(entry.substring(equals + 1).trim());
            } catch (IllegalArgumentException e) {
                throw new DuetException(ErrorCode.INVALID_CONFIG, "initial-cluster entry '" + entry + "': " + e.getMessage());
            }
            if (members.put(entry.substring(0, equals).trim(), address) != null) {
                fail("initial-cluster names '" + entry.substring(0, equals) + "' twice");
            }
        }
        if (members.isEmpty()) {
            fail("initial-cluster is empty");
        }
        return members;
    }

    private static void positive(String key, Duration value) {
        if (value.isNegative() || value.isZero()) {
            fail(key + " must be positive");
        }
    }

    private static void fail(String message) {
        throw new DuetException(ErrorCode.INVALID_CONFIG, message);
    }

    public String name() {
        return name;
    }

    public PlacementConfig setName(String name) {
        this.name = name;
        return this;
    }

    public Path dataDir() {
        return dataDir;
    }

    public PlacementConfig setDataDir(Path dataDir) {
        this.dataDir = dataDir;
        return this;
    }

    public HostAndPort clientAddress() {
        return clientAddress;
    }

    public PlacementConfig setClientAddress(HostAndPort clientAddress) {
        this.clientAddress = clientAddress;
        return this;
    }

    /** Where clients should reach this member: the advertised address, else the listening one. */
    public HostAndPort advertisedClientAddress() {
        return advertiseClientAddress != null ? advertiseClientAddress : clientAddress;
    }

    public PlacementConfig setAdvertiseClientAddress(HostAndPort advertiseClientAddress) {
        this.advertiseClientAddress = advertiseClientAddress;
        return this;
    }

    public HostAndPort peerAddress() {
        return peerAddress;
    }

    public PlacementConfig setPeerAddress(HostAndPort peerAddress) {
        this.peerAddress = peerAddress;
        return this;
    }

    public HostAndPort statusAddress() {
        return statusAddress;
    }

    public PlacementConfig setStatusAddress(HostAndPort statusAddress) {
        this.statusAddress = statusAddress;
        return this;
    }

    public List<String> initialCluster() {
        return initialCluster;
    }

    public PlacementConfig setInitialCluster(List<String> initialCluster) {
        this.initialCluster = new ArrayList<>(initialCluster);
        return this;
    }

    public Duration electionTimeout() {
        return electionTimeout;
    }

    public PlacementConfig setElectionTimeout(Duration electionTimeout) {
        this.electionTimeout = electionTimeout;
        return this;
    }

    public Duration tsoSaveInterval() {
        return tsoSaveInterval;
    }

    public PlacementConfig setTsoSaveInterval(Duration tsoSaveInterval) {
        this.tsoSaveInterval = tsoSaveInterval;
        return this;
    }

    public int maxReplicas() {
        return maxReplicas;
    }

    public PlacementConfig setMaxReplicas(int maxReplicas) {
        this.maxReplicas = maxReplicas;
        return this;
    }

    public Duration storeDisconnectTime() {
        return storeDisconnectTime;
    }

    public PlacementConfig setStoreDisconnectTime(Duration storeDisconnectTime) {
        this.storeDisconnectTime = storeDisconnectTime;
        return this;
    }

    public Duration maxStoreDownTime() {
        return maxStoreDownTime;
    }

    public PlacementConfig setMaxStoreDownTime(Duration maxStoreDownTime) {
        this.maxStoreDownTime = maxStoreDownTime;
        return this;
    }

    public Duration scheduleInterval() {
        return scheduleInterval;
    }

    public PlacementConfig setScheduleInterval(Duration scheduleInterval) {
        this.scheduleInterval = scheduleInterval;
        return this;
    }

    public int leaderScheduleLimit() {
        return leaderScheduleLimit;
    }

    public PlacementConfig setLeaderScheduleLimit(int leaderScheduleLimit) {
        this.leaderScheduleLimit = leaderScheduleLimit;
        return this;
    }

    public int regionScheduleLimit() {
        return regionScheduleLimit;
    }

    public PlacementConfig setRegionScheduleLimit(int regionScheduleLimit) {
        this.regionScheduleLimit = regionScheduleLimit;
        return this;
    }

    public Duration operatorTimeout() {
        return operatorTimeout;
    }

    public PlacementConfig setOperatorTimeout(Duration operatorTimeout) {
        this.operatorTimeout = operatorTimeout;
        return this;
    }

    public DataSize maxMergeRegionSize() {
        return maxMergeRegionSize;
    }

    public PlacementConfig setMaxMergeRegionSize(DataSize maxMergeRegionSize) {
        this.maxMergeRegionSize = maxMergeRegionSize;
        return this;
    }

    public Duration gcLifeTime() {
        return gcLifeTime;
    }

    public PlacementConfig setGcLifeTime(Duration gcLifeTime) {
        this.gcLifeTime = gcLifeTime;
        return this;
    }

    public Duration splitMergeInterval() {
        return splitMergeInterval;
    }

    public PlacementConfig setSplitMergeInterval(Duration splitMergeInterval) {
        this.splitMergeInterval = splitMergeInterval;
        return this;
    }

    public int mergeScheduleLimit() {
        return mergeScheduleLimit;
    }

    public PlacementConfig setMergeScheduleLimit(int mergeScheduleLimit) {
        this.mergeScheduleLimit = mergeScheduleLimit;
        return this;
    }

    public long snapshotThreshold() {
        return snapshotThreshold;
    }

    public PlacementConfig setSnapshotThreshold(long snapshotThreshold) {
        this.snapshotThreshold = snapshotThreshold;
        return this;
    }
}
