package io.duetdb.placement.internal.txn;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WaitForGraphTest {
    @Test
    void aWaitThatClosesACycleIsRefusedWithTheCycle() {
        WaitForGraph graph = new WaitForGraph(1_000_000_000L);
        assertThat(graph.detect(1, 2, 7, 0)).isEmpty();
        assertThat(graph.detect(2, 3, 8, 0)).isEmpty();
        assertThat(graph.detect(3, 1, 9, 0)).containsExactly(3L, 1L, 2L, 3L);
        assertThat(graph.edges()).isEqualTo(2);
        graph.cleanUp(2, 3);
        assertThat(graph.detect(3, 1, 9, 0)).isEmpty();
        assertThat(graph.detect(1, 1, 9, 0)).containsExactly(1L, 1L);
    }

    @Test
    void oldEdgesExpireAndCleanUpRemovesEveryWaitOfAWaiter() {
        WaitForGraph graph = new WaitForGraph(100);
        assertThat(graph.detect(1, 2, 0, 0)).isEmpty();
        assertThat(graph.detect(1, 3, 0, 0)).isEmpty();
        graph.cleanUp(1, 0);
        assertThat(graph.edges()).isZero();
        assertThat(graph.detect(1, 2, 0, 0)).isEmpty();
        assertThat(graph.detect(2, 1, 0, 1_000)).as("the edge 1 -> 2 expired").isEmpty();
    }
}
