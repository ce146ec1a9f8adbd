package io.duetdb.client.txn;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.client.kv.RegionRequestSender;
import io.duetdb.client.region.RegionCache;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.KeyRanges;
import io.duetdb.proto.coprocessor.KeyRange;
import io.duetdb.proto.kv.Context;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.mpp.CancelQueryRequest;
import io.duetdb.proto.mpp.DispatchTaskRequest;
import io.duetdb.proto.mpp.DispatchTaskResponse;
import io.duetdb.proto.mpp.ExchangeSender;
import io.duetdb.proto.mpp.MppExecutor;
import io.duetdb.proto.mpp.MppFragment;
import io.duetdb.proto.mpp.MppGrpc;
import io.duetdb.proto.mpp.MppQuery;
import io.duetdb.proto.mpp.MppTableScan;
import io.duetdb.proto.mpp.RegionRead;
import io.duetdb.proto.mpp.TaskMeta;

/**
 * Turns an MPP query's fragments into tasks on the column learners and starts them (TiDB's MPP coordinator): each
 * region a fragment scans goes to one learner holding a replica of it (the least loaded), a fragment that scans runs
 * one task per learner given its regions, and every other fragment one task per learner the query uses; exchange
 * senders learn their receiving tasks and receivers their sources; then every task is dispatched. The SQL server
 * gathers the root fragment's tasks ({@link MppStream}).
 */
final class MppCoordinator {
    private static final Logger LOG = LoggerFactory.getLogger(MppCoordinator.class);
    static final String COLUMNAR_LABEL = "engine";
    static final String COLUMNAR_ENGINE = "columnar";

    /** The tasks of a dispatched query, and the root fragment's tasks that send to the server. */
    record Dispatched(long startTs, long queryId, List<TaskMeta> rootTasks, List<String> learners) {
    }

    private final RegionRequestSender sender;
    private final AtomicLong queryIds = new AtomicLong();

    MppCoordinator(RegionRequestSender sender) {
        this.sender = requireNonNull(sender, "sender is null");
    }

    long nextQueryId() {
        return queryIds.incrementAndGet();
    }

    /** Plans the tasks of {@code query} and dispatches them; on any refusal cancels those started and throws. */
    Dispatched dispatch(MppQuery query, long startTs, long queryId, long memoryQuota, int timeoutSeconds) {
        if (query.getFragmentsCount() == 0) {
            throw new DuetException(ErrorCode.INVALID_ARGUMENT, "an MPP query without fragments");
        }
        Map<Integer, MppFragment> fragments = new LinkedHashMap<>();
        for (MppFragment fragment : query.getFragmentsList()) {
            fragments.put(fragment.getId(), fragment);
        }
        // Regions of every scan, each given to one learner.
        Map<String, Integer> load = new HashMap<>();
        Map<Integer, List<TaskReads>> scanRegions = new HashMap<>();
        int tasksPerLearner = Math.max(1, query.getTasksPerLearner());
        TreeMap<String, Boolean> learners = new TreeMap<>();
        for (MppFragment fragment : query.getFragmentsList()) {
            List<MppTableScan> scans = new ArrayList<>();
            collectScans(fragment.getRoot(), scans);
            if (scans.isEmpty()) {
                continue;
            }
            Map<String, List<List<RegionRead>>> byLearner = new TreeMap<>();
            for (int s = 0; s < scans.size(); s++) {
                MppTableScan scan = scans.get(s);
                byte[] start = scan.getRange().getStart().toByteArray();
                byte[] end = scan.getRange().getEnd().toByteArray();
                if (end.length == 0 || KeyRanges.compare(start, end) >= 0) {
                    continue;
                }
                for (RegionCache.CachedRegion cached : locateWithLearners(start, end)) {
                    String learner = chooseLearner(cached, load);
                    byte[] regionStart = cached.region().getStartKey().toByteArray();
                    byte[] regionEnd = cached.region().getEndKey().toByteArray();
                    byte[] partStart = KeyRanges.compare(start, regionStart) >= 0 ? start : regionStart;
                    byte[] partEnd = KeyRanges.compareEnds(end, regionEnd) <= 0 ? end : regionEnd;
                    List<List<RegionRead>> perScan = byLearner.computeIfAbsent(learner, l -> emptyLists(scans.size()));
                    perScan.get(s).add(RegionRead.newBuilder()
                            .setContext(Context.newBuilder().setRegionId(cached.region().getId())
                                    .setRegionEpoch(cached.region().getEpoch()))
                            .addRanges(KeyRange.newBuilder().setStart(ByteString.copyFrom(partStart))
                                    .setEnd(ByteString.copyFrom(partEnd)))
                            .build());
                    learners.put(learner, true);
                }
            }
            if (byLearner.isEmpty()) {
                // Nothing to scan: one task on some learner still sends the fragment's (empty) end.
                byLearner.put("", emptyLists(scans.size()));
            }
            List<TaskReads> taskReads = new ArrayList<>();
            byLearner.forEach((learner, perScan) -> taskReads.addAll(split(learner, perScan, tasksPerLearner)));
            scanRegions.put(fragment.getId(), taskReads);
        }
        if (learners.isEmpty()) {
            learners.put(anyLearner(), true);
        }
        List<String> allLearners = new ArrayList<>(learners.keySet());
        Map<Integer, List<TaskMeta>> tasks = new HashMap<>();
        long taskIds = 0;
        for (MppFragment fragment : query.getFragmentsList()) {
            List<TaskMeta> fragmentTasks = new ArrayList<>();
            List<String> addresses = new ArrayList<>();
            if (scanRegions.containsKey(fragment.getId())) {
                scanRegions.get(fragment.getId()).forEach(reads -> addresses.add(reads.learner()));
            } else {
                for (String learner : allLearners) {
                    for (int i = 0; i < tasksPerLearner; i++) {
                        addresses.add(learner);
                    }
                }
            }
            for (String address : addresses) {
                fragmentTasks.add(TaskMeta.newBuilder().setStartTs(startTs).setQueryId(queryId).setTaskId(++taskIds)
                        .setAddress(address.isEmpty() ? allLearners.get(0) : address).build());
            }
            tasks.put(fragment.getId(), fragmentTasks);
        }
        TaskMeta server = TaskMeta.newBuilder().setStartTs(startTs).setQueryId(queryId).setTaskId(-1).build();
        List<DispatchTaskRequest> requests = new ArrayList<>();
        List<TaskMeta> rootTasks = new ArrayList<>();
        for (MppFragment fragment : query.getFragmentsList()) {
            ExchangeSender.Builder exchange = fragment.getSender().toBuilder().clearTargets();
            if (fragment.getSender().getToServer()) {
                exchange.addTargets(server);
                rootTasks.addAll(tasks.get(fragment.getId()));
            } else {
                List<TaskMeta> targets = tasks.get(fragment.getSender().getTargetFragment());
                if (targets == null) {
                    throw new DuetException(ErrorCode.INVALID_ARGUMENT, "fragment " + fragment.getId()
                            + " sends to fragment " + fragment.getSender().getTargetFragment() + ", which is not planned");
                }
                exchange.addAllTargets(targets);
            }
            List<TaskMeta> fragmentTasks = tasks.get(fragment.getId());
            List<TaskReads> regions = scanRegions.get(fragment.getId());
            for (int t = 0; t < fragmentTasks.size(); t++) {
                TaskMeta task = fragmentTasks.get(t);
                List<List<RegionRead>> reads = regions == null ? null : regions.get(t).perScan();
                int[] nextScan = {0};
                MppExecutor root = fill(fragment.getRoot(), tasks, reads, nextScan);
                requests.add(DispatchTaskRequest.newBuilder().setMeta(task).setRoot(root).setSender(exchange)
                        .setMemoryQuota(Math.max(0, memoryQuota)).setTimeoutSeconds(timeoutSeconds).build());
            }
        }
        if (rootTasks.isEmpty()) {
            throw new DuetException(ErrorCode.INVALID_ARGUMENT, "an MPP query without a fragment that sends to the server");
        }
        Dispatched dispatched = new Dispatched(startTs, queryId, rootTasks, allLearners);
        // Receivers first, so that senders find them connected; a connection waits for a late sender anyway.
        for (int i = requests.size() - 1; i >= 0; i--) {
            DispatchTaskRequest request = requests.get(i);
            DispatchTaskResponse response;
            try {
                response = MppGrpc.newBlockingStub(channel(request.getMeta().getAddress()))
                        .withDeadlineAfter(30, TimeUnit.SECONDS).dispatchTask(request);
            } catch (io.grpc.StatusRuntimeException e) {
                cancel(dispatched, "a task could not be dispatched");
                throw new DuetException(ErrorCode.REGION_UNAVAILABLE, "cannot dispatch an MPP task to learner "
                        + request.getMeta().getAddress() + ": " + e.getStatus());
            }
            if (response.hasError()) {
                cancel(dispatched, "a task was refused");
                throw new DuetException(errorCode(response.getError().getErrorCode()), "learner "
                        + request.getMeta().getAddress() + " refused an MPP task: " + response.getError().getMessage());
            }
        }
        LOG.info("MPP query {}/{}: {} fragment(s), {} task(s) on {} learner(s)", startTs, queryId, fragments.size(),
                requests.size(), allLearners.size());
        return dispatched;
    }

    /** The regions one task of a scanning fragment reads, per scan of the fragment in tree order. */
    private record TaskReads(String learner, List<List<RegionRead>> perScan) {
    }

    /**
     * A learner's share of a fragment's regions cut into up to {@code tasks} tasks, region by region in turn, so that a
     * learner scans with as many threads as the query allows.
     */
    private static List<TaskReads> split(String learner, List<List<RegionRead>> perScan, int tasks) {
        int most = perScan.stream().mapToInt(List::size).max().orElse(0);
        int count = Math.max(1, Math.min(tasks, most));
        List<TaskReads> split = new ArrayList<>(count);
        for (int t = 0; t < count; t++) {
            split.add(new TaskReads(learner, emptyLists(perScan.size())));
        }
        for (int scan = 0; scan < perScan.size(); scan++) {
            List<RegionRead> regions = perScan.get(scan);
            for (int r = 0; r < regions.size(); r++) {
                split.get(r % count).perScan().get(scan).add(regions.get(r));
            }
        }
        return split;
    }

    private static List<List<RegionRead>> emptyLists(int count) {
        List<List<RegionRead>> lists = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            lists.add(new ArrayList<>());
        }
        return lists;
    }

    private static void collectScans(MppExecutor executor, List<MppTableScan> scans) {
        if (executor.hasTableScan()) {
            scans.add(executor.getTableScan());
        }
        executor.getChildrenList().forEach(child -> collectScans(child, scans));
    }

    /** The executor tree with its scans' regions (in tree order) and its receivers' source tasks filled in. */
    private static MppExecutor fill(MppExecutor executor, Map<Integer, List<TaskMeta>> tasks, List<List<RegionRead>> reads,
            int[] nextScan) {
        MppExecutor.Builder filled = executor.toBuilder().clearChildren();
        if (executor.hasTableScan()) {
            List<RegionRead> regions = reads == null ? List.of() : reads.get(nextScan[0]);
            nextScan[0]++;
            filled.setTableScan(executor.getTableScan().toBuilder().clearRegions().addAllRegions(regions));
        } else if (executor.hasExchangeReceiver()) {
            List<TaskMeta> sources = tasks.get(executor.getExchangeReceiver().getSourceFragment());
            if (sources == null) {
                throw new DuetException(ErrorCode.INVALID_ARGUMENT, "a receiver of fragment "
                        + executor.getExchangeReceiver().getSourceFragment() + ", which is not planned");
            }
            filled.setExchangeReceiver(executor.getExchangeReceiver().toBuilder().clearSources().addAllSources(sources));
        }
        for (MppExecutor child : executor.getChildrenList()) {
            filled.addChildren(fill(child, tasks, reads, nextScan));
        }
        return filled.build();
    }

    /**
     * The regions of [start, end), asked of placement again when the cache knows no columnar learner of some: the
     * cache does not hear of learners added after it loaded a region.
     */
    private List<RegionCache.CachedRegion> locateWithLearners(byte[] start, byte[] end) {
        List<RegionCache.CachedRegion> located = sender.regions().locateRange(start, end);
        boolean stale = false;
        for (RegionCache.CachedRegion cached : located) {
            if (!hasColumnarLearner(cached)) {
                sender.regions().invalidate(cached.region().getId());
                stale = true;
            }
        }
        return stale ? sender.regions().locateRange(start, end) : located;
    }

    private boolean hasColumnarLearner(RegionCache.CachedRegion cached) {
        return cached.region().getPeersList().stream()
                .anyMatch(peer -> peer.getRole() == PeerRole.LEARNER && columnarAddress(peer.getStoreId()) != null);
    }

    /** The least loaded learner store holding a replica of the region; fails when none does. */
    private String chooseLearner(RegionCache.CachedRegion cached, Map<String, Integer> load) {
        String best = null;
        for (Peer peer : cached.region().getPeersList()) {
            if (peer.getRole() != PeerRole.LEARNER) {
                continue;
            }
            String address = columnarAddress(peer.getStoreId());
            if (address != null && (best == null || load.getOrDefault(address, 0) < load.getOrDefault(best, 0))) {
                best = address;
            }
        }
        if (best == null) {
            throw new DuetException(ErrorCode.REGION_UNAVAILABLE, "region " + cached.region().getId()
                    + " has no column learner replica for an MPP read");
        }
        load.merge(best, 1, Integer::sum);
        return best;
    }

    private String anyLearner() {
        for (RegionCache.CachedRegion cached : sender.regions().locateRange(new byte[0], new byte[] {(byte) 0xff})) {
            for (Peer peer : cached.region().getPeersList()) {
                String address = peer.getRole() == PeerRole.LEARNER ? columnarAddress(peer.getStoreId()) : null;
                if (address != null) {
                    return address;
                }
            }
        }
        throw new DuetException(ErrorCode.REGION_UNAVAILABLE, "no column learner is known for an MPP read");
    }

    private String columnarAddress(long storeId) {
        try {
            var store = sender.regions().store(storeId).getStore();
            boolean columnar = store.getLabelsList().stream()
                    .anyMatch(label -> label.getKey().equals(COLUMNAR_LABEL) && label.getValue().equals(COLUMNAR_ENGINE));
            return columnar ? store.getAddress() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    io.grpc.Channel channel(String address) {
        return sender.channelTo(HostAndPort.parse(address));
    }

    /** Stops the query's tasks on every learner it used; best effort, without waiting. */
    void cancel(Dispatched query, String reason) {
        CancelQueryRequest request = CancelQueryRequest.newBuilder().setStartTs(query.startTs())
                .setQueryId(query.queryId()).setReason(reason).build();
        for (String learner : query.learners()) {
            try {
                MppGrpc.newFutureStub(channel(learner)).withDeadlineAfter(5, TimeUnit.SECONDS).cancelQuery(request);
            } catch (RuntimeException e) {
                LOG.info("MPP query {}/{}: cannot cancel on learner {}: {}", query.startTs(), query.queryId(), learner,
                        e.getMessage());
            }
        }
    }

    static ErrorCode errorCode(String name) {
        return CoprocessorReader.errorCode(name);
    }
}
