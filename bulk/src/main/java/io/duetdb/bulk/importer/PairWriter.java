package io.duetdb.bulk.importer;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;

import io.duetdb.client.txn.TxnClient;
import io.duetdb.common.checksum.KeyValueChecksum;
import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.keys.KvLimits;

/**
 * Writes sorted pairs as committed versions at one timestamp (KvImport), in batches that stay within one write's
 * limits, several batches at once. Sorted input makes each batch a contiguous key range, mostly within one region.
 * Equal keys next to each other are duplicates in the input: the write fails naming them, before the batch holding
 * them is sent.
 */
final class PairWriter {
    private static final int BATCH_PAIRS = 8_000;
    private static final long BATCH_BYTES = KvLimits.MAX_WRITE_BYTES - (1 << 20);

    private final TxnClient client;
    private final long commitTs;
    private final int concurrency;
    private final ImportProgress progress;

    PairWriter(TxnClient client, long commitTs, int concurrency, ImportProgress progress) {
        this.client = requireNonNull(client, "client is null");
        this.commitTs = commitTs;
        this.concurrency = concurrency;
        this.progress = requireNonNull(progress, "progress is null");
    }

    /** Writes every pair, adding each to {@code checksum}; returns how many. */
    long write(ExternalSorter.Merged pairs, KeyValueChecksum checksum, BooleanSupplier cancelled) {
        ExecutorService senders = Executors.newFixedThreadPool(concurrency, new NamedThreadFactory("bulk", "import", "writer"));
        List<Future<?>> inFlight = new ArrayList<>();
        long written = 0;
        try {
            Map<ByteString, ByteString> batch = new LinkedHashMap<>();
            long batchBytes = 0;
            byte[] previous = null;
            for (KeyValuePair pair = pairs.next(); pair != null; pair = pairs.next()) {
                if (previous != null && Arrays.equals(previous, pair.key())) {
                    throw new DuetException(ErrorCode.DUPLICATE_ENTRY, "Duplicate entry in the imported data for key "
                            + Keys.describe(pair.key()) + ": two input rows have the same primary or unique key");
                }
                previous = pair.key();
                checksum.add(pair.key(), pair.value());
                batch.put(UnsafeByteOperations.unsafeWrap(pair.key()), UnsafeByteOperations.unsafeWrap(pair.value()));
                batchBytes += KvLimits.pairBytes(pair.key().length, pair.value().length);
                written++;
                if (batch.size() >= BATCH_PAIRS || batchBytes >= BATCH_BYTES) {
                    if (cancelled.getAsBoolean()) {
                        throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
                    }
                    inFlight.add(send(senders, batch));
                    batch = new LinkedHashMap<>();
                    batchBytes = 0;
                    awaitBelow(inFlight, concurrency * 2);
                }
            }
            if (!batch.isEmpty()) {
                inFlight.add(send(senders, batch));
            }
            awaitBelow(inFlight, 1);
            return written;
        } finally {
            senders.shutdownNow();
        }
    }

    private Future<?> send(ExecutorService senders, Map<ByteString, ByteString> batch) {
        return senders.submit(() -> {
            client.importCommitted(batch, commitTs);
            progress.pairsWritten.addAndGet(batch.size());
        });
    }

    /** Waits for the oldest batches until fewer than {@code limit} are in flight; rethrows a batch's failure. */
    private static void awaitBelow(List<Future<?>> inFlight, int limit) {
        while (inFlight.size() >= limit) {
            Future<?> oldest = inFlight.remove(0);
            try {
                oldest.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException runtime) {
                    throw runtime;
                }
                throw new IllegalStateException(e.getCause());
            }
        }
    }
}
