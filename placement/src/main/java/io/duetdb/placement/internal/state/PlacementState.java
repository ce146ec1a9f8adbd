package io.duetdb.placement.internal.state;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

import io.duetdb.common.keys.KeyRanges;
import io.duetdb.common.keys.Keys;
import io.duetdb.placement.internal.proto.AdvanceGcSafePoint;
import io.duetdb.placement.internal.proto.Bootstrap;
import io.duetdb.placement.internal.proto.DeleteRule;
import io.duetdb.placement.internal.proto.ExtendTso;
import io.duetdb.placement.internal.proto.InitCluster;
import io.duetdb.placement.internal.proto.PlacementCommand;
import io.duetdb.placement.internal.proto.PlacementCommandResult;
import io.duetdb.placement.internal.proto.PlacementSnapshot;
import io.duetdb.placement.internal.proto.PutMember;
import io.duetdb.placement.internal.proto.PutRegion;
import io.duetdb.placement.internal.proto.PutRule;
import io.duetdb.placement.internal.proto.PutServiceSafePoint;
import io.duetdb.placement.internal.proto.PutStore;
import io.duetdb.placement.internal.proto.ReserveIds;
import io.duetdb.placement.internal.proto.ReserveTso;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.RegionEpoch;
import io.duetdb.proto.meta.Store;
import io.duetdb.proto.meta.StoreState;
import io.duetdb.proto.placement.Error;
import io.duetdb.proto.placement.ErrorType;
import io.duetdb.proto.placement.Member;
import io.duetdb.proto.placement.PlacementRule;
import io.duetdb.proto.placement.ServiceSafePoint;

/**
 * Everything the placement group replicates, and the deterministic rules that change it. Not thread-safe:
 * {@link PlacementStateMachine} serialises access.
 */
public final class PlacementState {
    static final int SNAPSHOT_FORMAT = 1;

    private long clusterId;
    private long tsoLimitMillis;
    private long nextId = 1;
    private boolean bootstrapped;
    private final Map<String, Member> members = new LinkedHashMap<>();
    private final Map<Long, Store> stores = new HashMap<>();
    private final NavigableMap<byte[], Region> regionsByStart = new TreeMap<>(KeyRanges.KEY_ORDER);
    private final Map<Long, Region> regionsById = new HashMap<>();
    private final Map<String, PlacementRule> rules = new LinkedHashMap<>();
    private long gcSafePoint;
    private final Map<String, ServiceSafePoint> serviceSafePoints = new LinkedHashMap<>();

    public PlacementCommandResult apply(PlacementCommand command) {
        return switch (command.getCommandCase()) {
            case INIT_CLUSTER -> initCluster(command.getInitCluster());
            case RESERVE_TSO -> reserveTso(command.getReserveTso());
            case EXTEND_TSO -> extendTso(command.getExtendTso());
            case RESERVE_IDS -> reserveIds(command.getReserveIds());
            case PUT_MEMBER -> putMember(command.getPutMember());
            case PUT_STORE -> putStore(command.getPutStore());
            case BOOTSTRAP -> bootstrap(command.getBootstrap());
            case PUT_REGION -> putRegion(command.getPutRegion());
            case PUT_RULE -> putRule(command.getPutRule());
            case DELETE_RULE -> deleteRule(command.getDeleteRule());
            case PUT_SERVICE_SAFE_POINT -> putServiceSafePoint(command.getPutServiceSafePoint());
            case ADVANCE_GC_SAFE_POINT -> advanceGcSafePoint(command.getAdvanceGcSafePoint());
            case COMMAND_NOT_SET -> error(ErrorType.INVALID_ARGUMENT, "empty placement command");
        };
    }

    private PlacementCommandResult initCluster(InitCluster command) {
        if (clusterId == 0 && command.getClusterId() != 0) {
            clusterId = command.getClusterId();
        }
        return PlacementCommandResult.newBuilder().setClusterId(clusterId).build();
    }

    private PlacementCommandResult reserveTso(ReserveTso command) {
        // Everything served so far lies below the old limit, so the new leader starts at or above it.
        long start = Math.max(tsoLimitMillis, command.getLeaderNowMs());
        tsoLimitMillis = start + Math.max(1, command.getWindowMs());
        return PlacementCommandResult.newBuilder().setTsoStartMs(start).setTsoLimitMs(tsoLimitMillis).build();
    }

    private PlacementCommandResult extendTso(ExtendTso command) {
        tsoLimitMillis = Math.max(tsoLimitMillis, command.getLeaderNowMs() + command.getWindowMs());
        return PlacementCommandResult.newBuilder().setTsoLimitMs(tsoLimitMillis).build();
    }

    private PlacementCommandResult reserveIds(ReserveIds command) {
        if (command.getCount() == 0 || command.getCount() > 1_000_000) {
            return error(ErrorType.INVALID_ARGUMENT, "cannot reserve " + command.getCount() + " ids at once");
        }
        long first = nextId;
        nextId += command.getCount();
        return PlacementCommandResult.newBuilder().setFirstId(first).build();
    }

    private PlacementCommandResult putMember(PutMember command) {
        Member member = command.getMember();
        if (member.getName().isEmpty()) {
            return error(ErrorType.INVALID_ARGUMENT, "member without a name");
        }
        members.put(member.getName(), member);
        return PlacementCommandResult.getDefaultInstance();
    }

    private PlacementCommandResult putStore(PutStore command) {
        Store store = command.getStore();
        if (store.getId() == 0 || store.getAddress().isEmpty()) {
            return error(ErrorType.INVALID_ARGUMENT, "a store needs an id and an address");
        }
        Store existing = stores.get(store.getId());
        if (existing != null && existing.getState() == StoreState.TOMBSTONE) {
            return error(ErrorType.STORE_TOMBSTONE, "store " + store.getId() + " is a tombstone and cannot come back");
        }
        for (Store other : stores.values()) {
            if (other.getId() != store.getId() && other.getState() != StoreState.TOMBSTONE
                    && other.getAddress().equals(store.getAddress())) {
                return error(ErrorType.DUPLICATE_STORE_ADDRESS, "address " + store.getAddress()
                        + " is already registered by store " + other.getId());
            }
        }
        Store.Builder updated = store.toBuilder();
        if (store.getState() == StoreState.STORE_STATE_UNSPECIFIED) {
            updated.setState(existing == null ? StoreState.SERVING : existing.getState());
        }
        Store result = updated.build();
        stores.put(result.getId(), result);
        return PlacementCommandResult.newBuilder().setStore(result).setExisted(existing != null).build();
    }

    private PlacementCommandResult bootstrap(Bootstrap command) {
        if (bootstrapped) {
            return error(ErrorType.INVALID_ARGUMENT, "the cluster is already bootstrapped");
        }
        Region region = command.getRegion();
        if (region.getStartKey().size() != 0 || region.getEndKey().size() != 0 || region.getPeersCount() == 0) {
            return error(ErrorType.INVALID_ARGUMENT, "the first region must cover the whole key space and have a peer");
        }
        bootstrapped = true;
        insertRegion(region);
        return PlacementCommandResult.newBuilder().setRegion(region).build();
    }

    /**
     * Records a region as its leader reports it, unless the report is older than what is known: an older
     * epoch of the same region, or a range that a region with a newer version already covers.
     */
    private PlacementCommandResult putRegion(PutRegion command) {
        Region region = command.getRegion();
        byte[] start = region.getStartKey().toByteArray();
        byte[] end = region.getEndKey().toByteArray();
        if (region.getId() == 0 || !KeyRanges.isValid(start, end)) {
            return error(ErrorType.INVALID_ARGUMENT, "region " + region.getId() + " has an invalid id or range");
        }
        Optional<String> stale = staleness(region);
        if (stale.isPresent()) {
            return error(ErrorType.STALE_REGION, stale.get());
        }
        Region existing = regionsById.get(region.getId());
        if (existing != null) {
            removeRegion(existing);
        }
        for (Region overlapped : overlapping(start, end)) {
            removeRegion(overlapped);
        }
        insertRegion(region);
        return PlacementCommandResult.newBuilder().setRegion(region).setExisted(existing != null).build();
    }

    /** Why a reported region is older than what is known, if it is. */
    public Optional<String> staleness(Region region) {
        Region existing = regionsById.get(region.getId());
        if (existing != null && isOlder(region.getEpoch(), existing.getEpoch())) {
            return Optional.of("region " + region.getId() + " epoch " + describe(region.getEpoch())
                    + " is older than the known " + describe(existing.getEpoch()));
        }
        for (Region other : overlapping(region.getStartKey().toByteArray(), region.getEndKey().toByteArray())) {
            if (other.getId() != region.getId() && other.getEpoch().getVersion() > region.getEpoch().getVersion()) {
                return Optional.of("region " + region.getId() + " version " + region.getEpoch().getVersion()
                        + " overlaps region " + other.getId() + " with the newer version " + other.getEpoch().getVersion());
            }
        }
        return Optional.empty();
    }

    /** Whether a reported region differs from the known one in anything that is persisted. */
    public boolean differsFromKnown(Region region) {
        Region existing = regionsById.get(region.getId());
        return existing == null || !existing.equals(region);
    }

    static boolean isOlder(RegionEpoch reported, RegionEpoch known) {
        return reported.getVersion() < known.getVersion() || reported.getConfVersion() < known.getConfVersion();
    }

    private static String describe(RegionEpoch epoch) {
        return "(conf " + epoch.getConfVersion() + ", version " + epoch.getVersion() + ")";
    }

    private PlacementCommandResult putRule(PutRule command) {
        PlacementRule rule = command.getRule();
        Optional<String> invalid = RuleValidation.check(rule);
        if (invalid.isPresent()) {
            return error(ErrorType.INVALID_ARGUMENT, invalid.get());
        }
        boolean existed = rules.put(rule.getId(), rule) != null;
        return PlacementCommandResult.newBuilder().setExisted(existed).build();
    }

    private PlacementCommandResult deleteRule(DeleteRule command) {
        boolean existed = rules.remove(command.getRuleId()) != null;
        return PlacementCommandResult.newBuilder().setExisted(existed).build();
    }

    private PlacementCommandResult putServiceSafePoint(PutServiceSafePoint command) {
        ServiceSafePoint entry = command.getEntry();
        if (entry.getSafePoint() == 0) {
            serviceSafePoints.remove(entry.getServiceId());
        } else if (entry.getSafePoint() < gcSafePoint) {
            return error(ErrorType.INVALID_ARGUMENT, "service safe point " + entry.getSafePoint()
                    + " is below the GC safe point " + gcSafePoint);
        } else {
            serviceSafePoints.put(entry.getServiceId(), entry);
        }
        return PlacementCommandResult.newBuilder().setGcSafePoint(gcSafePoint).build();
    }

    private PlacementCommandResult advanceGcSafePoint(AdvanceGcSafePoint command) {
        serviceSafePoints.values().removeIf(entry -> entry.getExpiresAtMs() <= command.getNowMs());
        long limit = serviceSafePoints.values().stream().mapToLong(ServiceSafePoint::getSafePoint).min().orElse(Long.MAX_VALUE);
        long next = Math.min(command.getSafePoint(), limit);
        if (next > gcSafePoint) {
            gcSafePoint = next;
        }
        return PlacementCommandResult.newBuilder().setGcSafePoint(gcSafePoint).build();
    }

    public long gcSafePoint() {
        return gcSafePoint;
    }

    public Collection<ServiceSafePoint> serviceSafePoints() {
        return List.copyOf(serviceSafePoints.values());
    }

    private void insertRegion(Region region) {
        regionsByStart.put(region.getStartKey().toByteArray(), region);
        regionsById.put(region.getId(), region);
    }

    private void removeRegion(Region region) {
        regionsByStart.remove(region.getStartKey().toByteArray());
        regionsById.remove(region.getId());
    }

    /** Known regions overlapping [start, end), in key order. */
    public List<Region> overlapping(byte[] start, byte[] end) {
        List<Region> result = new ArrayList<>();
        Map.Entry<byte[], Region> before = regionsByStart.lowerEntry(start);
        if (before != null && KeyRanges.overlaps(before.getValue().getStartKey().toByteArray(),
                before.getValue().getEndKey().toByteArray(), start, end)) {
            result.add(before.getValue());
        }
        NavigableMap<byte[], Region> tail = end.length == 0
                ? regionsByStart.tailMap(start, true)
                : regionsByStart.subMap(start, true, end, false);
        result.addAll(tail.values());
        return result;
    }

    public Optional<Region> regionContaining(byte[] key) {
        Map.Entry<byte[], Region> entry = regionsByStart.floorEntry(key);
        if (entry == null) {
            return Optional.empty();
        }
        Region region = entry.getValue();
        return KeyRanges.contains(region.getStartKey().toByteArray(), region.getEndKey().toByteArray(), key)
                ? Optional.of(region) : Optional.empty();
    }

    public Optional<Region> region(long id) {
        return Optional.ofNullable(regionsById.get(id));
    }

    public Collection<Region> regions() {
        return regionsByStart.values();
    }

    public Optional<Store> store(long id) {
        return Optional.ofNullable(stores.get(id));
    }

    public Collection<Store> stores() {
        return stores.values();
    }

    public Optional<Store> storeByAddress(String address) {
        return stores.values().stream()
                .filter(store -> store.getState() != StoreState.TOMBSTONE && store.getAddress().equals(address))
                .findFirst();
    }

    public Collection<Member> members() {
        return members.values();
    }

    public Collection<PlacementRule> rules() {
        return rules.values();
    }

    public long clusterId() {
        return clusterId;
    }

    public long tsoLimitMillis() {
        return tsoLimitMillis;
    }

    public long nextId() {
        return nextId;
    }

    public boolean bootstrapped() {
        return bootstrapped;
    }

    public PlacementSnapshot toSnapshot() {
        return PlacementSnapshot.newBuilder()
                .setFormat(SNAPSHOT_FORMAT)
                .setClusterId(clusterId)
                .setTsoLimitMs(tsoLimitMillis)
                .setNextId(nextId)
                .setBootstrapped(bootstrapped)
                .addAllMembers(members.values())
                .addAllStores(stores.values())
                .addAllRegions(regionsByStart.values())
                .addAllRules(rules.values())
                .setGcSafePoint(gcSafePoint)
                .addAllServiceSafePoints(serviceSafePoints.values())
                .build();
    }

    public void restore(PlacementSnapshot snapshot) {
        if (snapshot.getFormat() != SNAPSHOT_FORMAT) {
            throw new IllegalStateException("placement snapshot format " + snapshot.getFormat()
                    + " is not readable by this build (reads " + SNAPSHOT_FORMAT + ")");
        }
        clusterId = snapshot.getClusterId();
        tsoLimitMillis = snapshot.getTsoLimitMs();
        nextId = snapshot.getNextId();
        bootstrapped = snapshot.getBootstrapped();
        members.clear();
        snapshot.getMembersList().forEach(member -> members.put(member.getName(), member));
        stores.clear();
        snapshot.getStoresList().forEach(store -> stores.put(store.getId(), store));
        regionsByStart.clear();
        regionsById.clear();
        snapshot.getRegionsList().forEach(this::insertRegion);
        rules.clear();
        snapshot.getRulesList().forEach(rule -> rules.put(rule.getId(), rule));
        gcSafePoint = snapshot.getGcSafePoint();
        serviceSafePoints.clear();
        snapshot.getServiceSafePointsList().forEach(entry -> serviceSafePoints.put(entry.getServiceId(), entry));
    }

    private static PlacementCommandResult error(ErrorType type, String message) {
        return PlacementCommandResult.newBuilder()
                .setError(Error.newBuilder().setType(type).setMessage(message))
                .build();
    }

    static String describeRange(Region region) {
        return "[" + Keys.describe(region.getStartKey().toByteArray()) + ", "
                + Keys.describe(region.getEndKey().toByteArray()) + ")";
    }
}
