package io.duetdb.client.txn;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import com.google.protobuf.ByteString;

import io.duetdb.client.kv.RegionRequestSender;
import io.duetdb.client.region.RegionCache;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.KeyRanges;
import io.duetdb.proto.coprocessor.CoprocessorGrpc;
import io.duetdb.proto.coprocessor.CoprocessorRequest;
import io.duetdb.proto.coprocessor.CoprocessorResponse;
import io.duetdb.proto.coprocessor.KeyRange;
import io.duetdb.proto.coprocessor.PlanType;
import io.duetdb.proto.kv.Context;
import io.duetdb.proto.kv.KeyError;
import io.duetdb.proto.kv.RegionError;
import io.duetdb.proto.kv.ReplicaRead;

/**
 * Sends a coprocessor plan to the regions of a key range, several at once, and hands out their Arrow batches in key
 * order.
 * A region that split or moved is read again from where its answer would have started; a lock met in a region
 * is resolved and that region read again, so no batch is ever counted twice.
 */
final class CoprocessorReader {
    /** One region's complete answer for [start, end), or what stopped it. */
    private record RegionResult(List<CoprocessorResponse> batches, byte[] end, RegionError regionError, KeyError locked, String error,
            String errorCode, CoprocessorSummary summary) {
    }

    /** The answers of one part of a range (a region when nothing split), and what the stores reported of them. */
    private record Part(List<CoprocessorResponse> batches, CoprocessorSummary summary) {
    }

    static final java.time.Duration CALL_TIMEOUT = java.time.Duration.ofMinutes(30);

    private final RegionRequestSender sender;
    private final LockResolver resolver;
    private final Executor workers;

    CoprocessorReader(RegionRequestSender sender, LockResolver resolver, Executor workers) {
        this.sender = requireNonNull(sender, "sender is null");
        this.resolver = requireNonNull(resolver, "resolver is null");
        this.workers = requireNonNull(workers, "workers is null");
    }

    /**
     * The plan's answers over [start, end) at {@code ts} that carry data (Arrow batches, ANALYZE results), region by
     * region in key order.
     */
    List<CoprocessorResponse> read(PlanType type, byte[] plan, byte[] start, byte[] end, long ts, long deadline,
            long maxBytes) {
        List<CoprocessorResponse> batches = new ArrayList<>();
        try (Answers answers = stream(type, plan, start, end, ts, deadline, maxBytes, Integer.MAX_VALUE,
                ReplicaRead.LEADER)) {
            for (CoprocessorResponse answer = answers.next(); answer != null; answer = answers.next()) {
                batches.add(answer);
            }
        }
        return batches;
    }

    /**
     * The same answers handed out one at a time, in key order, with at most {@code readAhead} regions read at once:
     * a consumer that does not keep them holds a few regions' answers at a time, not the whole range's. Fails with
     * MEMORY_QUOTA_EXCEEDED once the answers received and not yet handed out pass {@code maxBytes} (none when
     * zero or less).
     */
    Answers stream(PlanType type, byte[] plan, byte[] start, byte[] end, long ts, long deadline, long maxBytes,
            int readAhead, ReplicaRead replica) {
        if (end.length == 0 || KeyRanges.compare(start, end) >= 0) {
            throw new DuetException(ErrorCode.INVALID_ARGUMENT, "a coprocessor read needs a bounded, non-empty key range");
        }
        if (readAhead < 1) {
            throw new IllegalArgumentException("readAhead must be positive: " + readAhead);
        }
        java.util.concurrent.atomic.AtomicLong held = new java.util.concurrent.atomic.AtomicLong();
        Budget budget = bytes -> {
            long total = held.addAndGet(bytes);
            if (bytes > 0 && maxBytes > 0 && total > maxBytes) {
                throw new DuetException(ErrorCode.MEMORY_QUOTA_EXCEEDED, "Your query has been cancelled due to exceeding"
                        + " the allowed memory limit for a single SQL query: the stores' answers reached " + total
                        + " bytes (quota " + maxBytes + "). Please try narrowing your query scope or increase the"
                        + " tidb_mem_quota_query limit and try again.");
            }
        };
        List<RegionCache.CachedRegion> regions = sender.regions().locateRange(start, end);
        java.util.ArrayDeque<java.util.function.Supplier<Part>> parts = new java.util.ArrayDeque<>();
        for (RegionCache.CachedRegion region : regions) {
            byte[] regionStart = region.region().getStartKey().toByteArray();
            byte[] regionEnd = region.region().getEndKey().toByteArray();
            byte[] partStart = KeyRanges.compare(start, regionStart) >= 0 ? start : regionStart;
            byte[] partEnd = KeyRanges.compareEnds(end, regionEnd) <= 0 ? end : regionEnd;
            parts.add(() -> readPart(type, plan, partStart, partEnd, ts, deadline, budget, replica));
        }
        return new Answers(parts, readAhead, budget);
    }

    /** Answers of the regions of a range in key order, read a few regions ahead of the consumer. */
    final class Answers implements AutoCloseable {
        private final java.util.ArrayDeque<java.util.function.Supplier<Part>> pending;
        private final java.util.ArrayDeque<CompletableFuture<Part>> reading = new java.util.ArrayDeque<>();
        private final int readAhead;
        private final Budget budget;
        private Iterator<CoprocessorResponse> current = java.util.Collections.emptyIterator();
        private long currentBytes;
        private CoprocessorSummary summary = CoprocessorSummary.NONE;

        private Answers(java.util.ArrayDeque<java.util.function.Supplier<Part>> pending, int readAhead,
                Budget budget) {
            this.pending = pending;
            this.readAhead = readAhead;
            this.budget = budget;
            // One region is read on the consumer's thread when its turn comes: no hand-off for the common small read.
            if (pending.size() > 1) {
                startReads();
            }
        }

        /** The next answer, or null when every region has answered. */
        CoprocessorResponse next() {
            while (!current.hasNext()) {
                budget.take(-currentBytes);
                currentBytes = 0;
                Part part;
                if (!reading.isEmpty()) {
                    part = join(reading.poll());
                    startReads();
                } else if (!pending.isEmpty()) {
                    part = pending.poll().get();
                } else {
                    return null;
                }
                for (CoprocessorResponse answer : part.batches()) {
                    currentBytes += answer.getSerializedSize();
                }
                summary = summary.plus(part.summary());
                current = part.batches().iterator();
            }
            return current.next();
        }

        private void startReads() {
            while (reading.size() < readAhead && !pending.isEmpty()) {
                reading.add(CompletableFuture.supplyAsync(pending.poll(), workers));
            }
        }

        /** What the stores reported of the parts handed out so far. */
        CoprocessorSummary summary() {
            return summary;
        }

        private Part join(CompletableFuture<Part> part) {
            try {
                return part.join();
            } catch (CompletionException e) {
                close();
                if (e.getCause() instanceof RuntimeException cause) {
                    throw cause;
                }
                throw e;
            }
        }

        /** Stops the reads still under way; their answers are dropped. */
        @Override
        public void close() {
            pending.clear();
            reading.forEach(part -> part.cancel(true));
            reading.clear();
            current = java.util.Collections.emptyIterator();
        }
    }

    /** Counts the bytes of answers held (negative: given back), failing once they pass the caller's limit. */
    private interface Budget {
        void take(long bytes);
    }

    /** Reads [start, end) region by region from {@code start}, following splits and resolving locks. */
    private Part readPart(PlanType type, byte[] plan, byte[] start, byte[] end, long ts,
            long deadline, Budget budget, ReplicaRead replica) {
        List<CoprocessorResponse> batches = new ArrayList<>();
        CoprocessorSummary summary = CoprocessorSummary.NONE;
        byte[] cursor = start;
        while (KeyRanges.compare(cursor, end) < 0) {
            byte[] from = cursor;
            RegionResult result;
            try {
                result = sender.callChannel(from, replica == ReplicaRead.LEADER ? sender.readMode() : replica,
                        (context, channel, remainingMillis) ->
                        callRegion(context, channel, remainingMillis, type, plan, from, end, ts, budget),
                        RegionResult::regionError, r -> r.regionError() != null, r -> null, region -> { }, true);
            } catch (RegionRequestSender.RegionChanged changed) {
                continue;
            }
            if (result.locked() != null) {
                waitForLock(result.locked(), deadline);
                continue;
            }
            if (result.error() != null) {
                throw new DuetException(errorCode(result.errorCode()), result.error());
            }
            batches.addAll(result.batches());
            summary = summary.plus(result.summary());
            cursor = result.end();
        }
        return new Part(batches, summary);
    }

    private RegionResult callRegion(Context context, io.grpc.Channel channel, long remainingMillis, PlanType type,
            byte[] plan, byte[] from, byte[] end, long ts, Budget budget) {
        byte[] regionEnd = sender.regions().cached(context.getRegionId())
                .map(cached -> cached.region().getEndKey().toByteArray()).orElse(end);
        byte[] partEnd = KeyRanges.compareEnds(end, regionEnd) <= 0 ? end : regionEnd;
        CoprocessorRequest request = CoprocessorRequest.newBuilder().setContext(context).setPlanType(type)
                .setPlan(ByteString.copyFrom(plan)).setStartTs(ts)
                .addRanges(KeyRange.newBuilder().setStart(ByteString.copyFrom(from)).setEnd(ByteString.copyFrom(partEnd)))
                .build();
        // Not the request timeout: that bounds retrying region errors, and a region's scan or ANALYZE of a large
        // table rightly takes longer. A statement is stopped by KILL (or its client going away) instead.
        Iterator<CoprocessorResponse> responses = CoprocessorGrpc.newBlockingStub(channel)
                .withDeadlineAfter(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).execute(request);
        List<CoprocessorResponse> batches = new ArrayList<>();
        RegionError regionError = null;
        KeyError locked = null;
        String error = null;
        String errorCode = null;
        CoprocessorSummary summary = CoprocessorSummary.NONE;
        while (responses.hasNext()) {
            CoprocessorResponse response = responses.next();
            if (response.hasSummary()) {
                summary = CoprocessorSummary.of(response.getSummary());
            }
            if (response.hasRegionError()) {
                regionError = response.getRegionError();
            } else if (response.hasLocked()) {
                locked = response.getLocked();
            } else if (!response.getError().isEmpty()) {
                error = response.getError();
                errorCode = response.getErrorCode();
            } else if (!response.getArrowIpc().isEmpty() || response.hasAnalyzeResult() || response.hasChecksumResult()) {
                budget.take(response.getSerializedSize());
                batches.add(response);
            }
        }
        return new RegionResult(batches, partEnd, regionError, locked, error, errorCode, summary);
    }

    private void waitForLock(KeyError locked, long deadline) {
        if (!locked.hasLocked()) {
            throw new DuetException(ErrorCode.UNKNOWN_ERROR, "coprocessor read failed: " + locked);
        }
        long wait = resolver.resolve(List.of(locked.getLocked()));
        if (wait <= 0) {
            return;
        }
        long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (remaining <= 0) {
            throw new DuetException(ErrorCode.RESOLVE_LOCK_TIMEOUT, "a coprocessor read gave up waiting for the lock of"
                    + " transaction " + locked.getLocked().getLockVersion());
        }
        try {
            Thread.sleep(Math.max(1, Math.min(Math.min(wait, remaining), 100)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "interrupted while waiting for a lock");
        }
    }

    static ErrorCode errorCode(String name) {
        if (name == null || name.isEmpty()) {
            return ErrorCode.UNKNOWN_ERROR;
        }
        try {
            return ErrorCode.valueOf(name);
        } catch (IllegalArgumentException e) {
            return ErrorCode.UNKNOWN_ERROR;
        }
    }
}
