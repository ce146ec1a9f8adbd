package io.duetdb.store.internal.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

class ListenerProgressTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aListenerIsStuckWhenItsIndexStaysBehindTheCommitIndexForTheWholePeriod() {
        ListenerProgress progress = new ListenerProgress(10 * SECOND);
        assertThat(progress.stuck(1, Map.of("store-4", 100L), 200, 0)).isEmpty();
        assertThat(progress.stuck(1, Map.of("store-4", 100L), 300, 9 * SECOND)).isEmpty();
        assertThat(progress.stuck(1, Map.of("store-4", 100L), 300, 10 * SECOND)).containsExactly("store-4");
        // Reported once per period, not at every check.
        assertThat(progress.stuck(1, Map.of("store-4", 100L), 300, 11 * SECOND)).isEmpty();
        assertThat(progress.stuck(1, Map.of("store-4", 100L), 300, 20 * SECOND)).containsExactly("store-4");
    }

    @Test
    void aListenerThatMovesOrHasEverythingIsNotStuck() {
        ListenerProgress progress = new ListenerProgress(10 * SECOND);
        progress.stuck(1, Map.of("store-4", 100L, "store-5", 300L), 300, 0);
        assertThat(progress.stuck(1, Map.of("store-4", 101L, "store-5", 300L), 300, 15 * SECOND)).isEmpty();
        assertThat(progress.stuck(1, Map.of("store-4", 101L, "store-5", 300L), 300, 30 * SECOND))
                .containsExactly("store-4");
        assertThat(progress.stuck(2, Map.of("store-4", 5L), 300, 30 * SECOND)).isEmpty();
    }

    @Test
    void aListenerThatNeverAcknowledgedAnythingIsInstallingItsFirstSnapshotNotStuck() {
        ListenerProgress progress = new ListenerProgress(10 * SECOND);
        progress.stuck(1, Map.of("store-4", 0L), 300, 0);
        assertThat(progress.stuck(1, Map.of("store-4", 0L), 900, 60 * SECOND)).isEmpty();
    }
}
