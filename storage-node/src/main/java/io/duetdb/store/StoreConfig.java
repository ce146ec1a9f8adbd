package io.duetdb.store;

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
import io.duetdb.common.keys.KvLimits;
import io.duetdb.common.net.ListenAddresses;
import io.duetdb.raft.RaftGroupHandle;

/**
 * One storage node's configuration. Field initialisers are the defaults; TOML keys are the kebab-case field
 * names (docs/configuration.md); command-line flags override both.
 */
public final class StoreConfig {
    public static final int DEFAULT_PORT = 20160;
    public static final int DEFAULT_RAFT_PORT = 20170;
    public static final int DEFAULT_STATUS_PORT = 20180;

    private Path dataDir = Path.of("data", "store-1");
    /** Placement members' client addresses. */
    private List<HostAndPort> pd = List.of(new HostAndPort("127.0.0.1", 2379));
    /** gRPC for clients and other stores: Kv and StoreAdmin. */
    private HostAndPort address = new HostAndPort("127.0.0.1", DEFAULT_PORT);
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private HostAndPort advertiseAddress;
    /** The Raft server that hosts every region replica on this store. */
    private HostAndPort raftAddress = new HostAndPort("127.0.0.1", DEFAULT_RAFT_PORT);
    private HostAndPort statusAddress = new HostAndPort("127.0.0.1", DEFAULT_STATUS_PORT);
    /** Store labels, such as zone = "z1"; engine = "columnar" marks a store for learners only. */
    private Map<String, String> labels = new LinkedHashMap<>();
    /** Lower bound of the region Raft election timeout (upper bound twice this); bounds the lease. */
    private Duration electionTimeout = Duration.ofSeconds(1);
    private Duration storeHeartbeatInterval = Duration.ofSeconds(10);
    private Duration regionHeartbeatInterval = Duration.ofSeconds(5);
    private Duration splitCheckInterval = Duration.ofSeconds(10);
    private Duration replicaGcInterval = Duration.ofSeconds(30);
    /** How often the store checks placement's GC safe point and collects old MVCC versions in the regions it leads. */
    private Duration gcRunInterval = Duration.ofMinutes(10);
    /** How often region leaders with learner replicas propose a resolved timestamp (learners read below it at once). */
    private Duration resolvedTsInterval = Duration.ofMillis(50);
    /** Slots of the transaction latch table (keys hash to slots; more slots, fewer false waits). */
    private int latchSlots = 2048;
    private boolean inMemoryPessimisticLocks = true;
    /** A region larger than this is split at its middle. */
    private DataSize regionMaxSize = DataSize.ofMebibytes(384);
    private DataSize blockCacheSize = DataSize.ofMebibytes(256);
    /** Writes stop when the data directory's disk has less free space than this. */
    private DataSize reserveSpace = DataSize.ofMebibytes(1024);
    /** Raft log entries applied between snapshots (log purges) of a region. */
    private long raftSnapshotThreshold = 10_000;
    /** Commands one Raft entry may carry. */
    private int maxBatchCommands = 512;
    private DataSize maxBatchBytes = DataSize.ofMebibytes(4);
    private DataSize coprocessorMemory = DataSize.ofMebibytes(1024);
    /** Raft entries a region leader may have in flight. */
    private int maxInflightProposals = 1;
    /** Ratis' shared server thread pool; 0 for a cached pool. */
    private int raftServerThreads = 0;

    public StoreConfig validate() {
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
        for (Duration duration : List.of(electionTimeout, storeHeartbeatInterval, regionHeartbeatInterval,
                splitCheckInterval, replicaGcInterval, gcRunInterval, resolvedTsInterval)) {
            if (duration.isZero() || duration.isNegative()) {
                fail("durations must be positive");
            }
        }
        if (regionMaxSize.bytes() < (1 << 20)) {
            fail("region-max-size must be at least 1MiB");
        }
        if (maxBatchCommands < 1 || maxInflightProposals < 1) {
            fail("max-batch-commands and max-inflight-proposals must be positive");
        }
        if (maxBatchBytes.bytes() < (64 << 10) || maxBatchBytes.bytes() > KvLimits.MAX_WRITE_BYTES) {
            fail("max-batch-bytes must be between 64KiB and " + new DataSize(KvLimits.MAX_WRITE_BYTES)
                    + " (a Raft entry must stay below " + new DataSize(RaftGroupHandle.MAX_COMMAND_BYTES) + ")");
        }
        if (coprocessorMemory.bytes() < (16 << 20)) {
            fail("coprocessor-memory must be at least 16MiB");
        }
        if (latchSlots < 16 || latchSlots > (1 << 20)) {
            fail("latch-slots must be between 16 and 1048576");
        }
        if (raftSnapshotThreshold < 100) {
            fail("raft-snapshot-threshold must be at least 100");
        }
        return this;
    }

    private static void fail(String message) {
        throw new DuetException(ErrorCode.INVALID_CONFIG, message);
    }

    public HostAndPort advertisedAddress() {
        return advertiseAddress != null ? advertiseAddress : address;
    }

    /**
     * What other stores dial for Raft: the Raft address, or, when it listens on a wildcard address, the
     * advertised host with the Raft port.
     */
    public HostAndPort advertisedRaftAddress() {
        return ListenAddresses.advertised(raftAddress, advertisedAddress());
    }

    /** The status address as others should use it (same rule as the Raft address). */
    public HostAndPort advertisedStatusAddress() {
        return ListenAddresses.advertised(statusAddress, advertisedAddress());
    }

    public Path dataDir() {
        return dataDir;
    }

    public StoreConfig setDataDir(Path dataDir) {
        this.dataDir = dataDir;
        return this;
    }

    public List<HostAndPort> pd() {
        return pd;
    }

    public StoreConfig setPd(List<HostAndPort> pd) {
        this.pd = List.copyOf(pd);
        return this;
    }

    public HostAndPort address() {
        return address;
    }

    public StoreConfig setAddress(HostAndPort address) {
        this.address = address;
        return this;
    }

    public StoreConfig setAdvertiseAddress(HostAndPort advertiseAddress) {
        this.advertiseAddress = advertiseAddress;
        return this;
    }

    public HostAndPort raftAddress() {
        return raftAddress;
    }

    public StoreConfig setRaftAddress(HostAndPort raftAddress) {
        this.raftAddress = raftAddress;
        return this;
    }

    public HostAndPort statusAddress() {
        return statusAddress;
    }

    public StoreConfig setStatusAddress(HostAndPort statusAddress) {
        this.statusAddress = statusAddress;
        return this;
    }

    public Map<String, String> labels() {
        return labels;
    }

    public StoreConfig setLabels(Map<String, String> labels) {
        this.labels = new LinkedHashMap<>(labels);
        return this;
    }

    public Duration electionTimeout() {
        return electionTimeout;
    }

    public StoreConfig setElectionTimeout(Duration electionTimeout) {
        this.electionTimeout = electionTimeout;
        return this;
    }

    public Duration storeHeartbeatInterval() {
        return storeHeartbeatInterval;
    }

    public StoreConfig setStoreHeartbeatInterval(Duration storeHeartbeatInterval) {
        this.storeHeartbeatInterval = storeHeartbeatInterval;
        return this;
    }

    public Duration regionHeartbeatInterval() {
        return regionHeartbeatInterval;
    }

    public StoreConfig setRegionHeartbeatInterval(Duration regionHeartbeatInterval) {
        this.regionHeartbeatInterval = regionHeartbeatInterval;
        return this;
    }

    public Duration splitCheckInterval() {
        return splitCheckInterval;
    }

    public StoreConfig setSplitCheckInterval(Duration splitCheckInterval) {
        this.splitCheckInterval = splitCheckInterval;
        return this;
    }

    public Duration gcRunInterval() {
        return gcRunInterval;
    }

    public StoreConfig setGcRunInterval(Duration gcRunInterval) {
        this.gcRunInterval = gcRunInterval;
        return this;
    }

    public Duration resolvedTsInterval() {
        return resolvedTsInterval;
    }

    public StoreConfig setResolvedTsInterval(Duration resolvedTsInterval) {
        this.resolvedTsInterval = resolvedTsInterval;
        return this;
    }

    public int latchSlots() {
        return latchSlots;
    }

    public StoreConfig setLatchSlots(int latchSlots) {
        this.latchSlots = latchSlots;
        return this;
    }

    /** Whether region leaders keep pessimistic locks in memory instead of replicating them (TiKV 6.0). */
    public boolean inMemoryPessimisticLocks() {
        return inMemoryPessimisticLocks;
    }

    public StoreConfig setInMemoryPessimisticLocks(boolean inMemoryPessimisticLocks) {
        this.inMemoryPessimisticLocks = inMemoryPessimisticLocks;
        return this;
    }

    public Duration replicaGcInterval() {
        return replicaGcInterval;
    }

    public StoreConfig setReplicaGcInterval(Duration replicaGcInterval) {
        this.replicaGcInterval = replicaGcInterval;
        return this;
    }

    public DataSize regionMaxSize() {
        return regionMaxSize;
    }

    public StoreConfig setRegionMaxSize(DataSize regionMaxSize) {
        this.regionMaxSize = regionMaxSize;
        return this;
    }

    public DataSize blockCacheSize() {
        return blockCacheSize;
    }

    public StoreConfig setBlockCacheSize(DataSize blockCacheSize) {
        this.blockCacheSize = blockCacheSize;
        return this;
    }

    public DataSize reserveSpace() {
        return reserveSpace;
    }

    public StoreConfig setReserveSpace(DataSize reserveSpace) {
        this.reserveSpace = reserveSpace;
        return this;
    }

    public long raftSnapshotThreshold() {
        return raftSnapshotThreshold;
    }

    public StoreConfig setRaftSnapshotThreshold(long raftSnapshotThreshold) {
        this.raftSnapshotThreshold = raftSnapshotThreshold;
        return this;
    }

    public int maxBatchCommands() {
        return maxBatchCommands;
    }

    public StoreConfig setMaxBatchCommands(int maxBatchCommands) {
        this.maxBatchCommands = maxBatchCommands;
        return this;
    }

    public DataSize maxBatchBytes() {
        return maxBatchBytes;
    }

    /** Off-heap memory the coprocessor's Arrow batches may hold at once, over all requests. */
    public DataSize coprocessorMemory() {
        return coprocessorMemory;
    }

    public StoreConfig setCoprocessorMemory(DataSize coprocessorMemory) {
        this.coprocessorMemory = coprocessorMemory;
        return this;
    }

    public int maxInflightProposals() {
        return maxInflightProposals;
    }

    public StoreConfig setMaxInflightProposals(int maxInflightProposals) {
        this.maxInflightProposals = maxInflightProposals;
        return this;
    }

    public int raftServerThreads() {
        return raftServerThreads;
    }

    public StoreConfig setRaftServerThreads(int raftServerThreads) {
        this.raftServerThreads = raftServerThreads;
        return this;
    }
}
