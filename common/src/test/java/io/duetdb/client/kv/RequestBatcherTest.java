package io.duetdb.client.kv;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

class RequestBatcherTest {
    private final Queue<Runnable> tasks = new ArrayDeque<>();
    private final List<List<Integer>> sent = new ArrayList<>();

    private RequestBatcher<Integer, Void> batcher(int maxBatch, long maxBytes, int maxInflight) {
        return new RequestBatcher<>(key -> key[0], (region, batch) -> {
            sent.add(batch.stream().map(RequestBatcher.Pending::request).toList());
            batch.forEach(pending -> pending.result().complete(null));
        }, tasks::add, maxBatch, maxBytes, pending -> pending.request(), maxInflight);
    }

    private void runAll() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            task.run();
        }
    }

    @Test
    void batchesStopAtTheByteBudgetButAnOversizedRequestStillGoesAlone() {
        RequestBatcher<Integer, Void> batcher = batcher(100, 10, 1);
        List<CompletableFuture<Void>> results = new ArrayList<>();
        for (int size : new int[] {4, 4, 4, 25, 3, 3}) {
            results.add(batcher.submit(new byte[] {1}, size));
        }
        runAll();
        assertThat(sent).containsExactly(List.of(4, 4), List.of(4), List.of(25), List.of(3, 3));
        assertThat(results).allMatch(CompletableFuture::isDone);
    }

    @Test
    void batchesStopAtTheCountAndRegionsBatchApart() {
        RequestBatcher<Integer, Void> batcher = batcher(2, Long.MAX_VALUE, 1);
        for (int i = 0; i < 3; i++) {
            batcher.submit(new byte[] {1}, i);
            batcher.submit(new byte[] {2}, 10 + i);
        }
        runAll();
        assertThat(sent).containsExactlyInAnyOrder(List.of(0, 1), List.of(2), List.of(10, 11), List.of(12));
    }
}
