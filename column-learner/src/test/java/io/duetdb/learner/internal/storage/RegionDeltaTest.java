package io.duetdb.learner.internal.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.duetdb.common.keys.Keys;
import io.duetdb.compute.scan.RowSource;

class RegionDeltaTest {
    private static final long TABLE = 42;

    @Test
    void aCommittedPrewriteIsVisibleFromItsCommitTimestamp() {
        RegionDelta delta = new RegionDelta();
        delta.prewrite(row(1), put(10, "a"));
        assertThat(values(delta, 100)).isEmpty();
        delta.commit(row(1), 10, 20);
        assertThat(values(delta, 19)).isEmpty();
        assertThat(values(delta, 20)).containsExactly("a");
        assertThat(delta.pendingCount()).isZero();
    }

    @Test
    void newerVersionsAndDeletesShadowOlderOnes() {
        RegionDelta delta = new RegionDelta();
        delta.putCommitted(row(1), 10, bytes("v1"));
        delta.putCommitted(row(1), 20, bytes("v2"));
        delta.putCommitted(row(2), 10, bytes("w1"));
        delta.putCommitted(row(2), 30, null);
        assertThat(values(delta, 15)).containsExactly("v1", "w1");
        assertThat(values(delta, 25)).containsExactly("v2", "w1");
        assertThat(values(delta, 35)).containsExactly("v2");
    }

    @Test
    void aRollbackDropsThePrewriteAndACommitOfAnotherTransactionIsIgnored() {
        RegionDelta delta = new RegionDelta();
        delta.prewrite(row(1), put(10, "a"));
        delta.commit(row(1), 11, 20);
        assertThat(values(delta, 100)).isEmpty();
        assertThat(delta.pendingCount()).isEqualTo(1);
        delta.rollback(row(1), 10);
        assertThat(delta.pendingCount()).isZero();
        delta.commit(row(1), 10, 20);
        assertThat(values(delta, 100)).isEmpty();
    }

    @Test
    void aPrewriteBlocksReadsAtOrAfterItsStartButNotBefore() {
        RegionDelta delta = new RegionDelta();
        delta.prewrite(row(5), put(50, "x"));
        List<byte[][]> all = List.<byte[][]>of(new byte[][] {Keys.recordPrefix(TABLE), Keys.recordEnd(TABLE)});
        assertThat(delta.blockingWrite(all, 49)).isEmpty();
        assertThat(delta.blockingWrite(all, 50)).isPresent();
        assertThat(delta.blockingWrite(List.<byte[][]>of(new byte[][] {row(6), Keys.recordEnd(TABLE)}), 60)).isEmpty();
        delta.prewrite(row(7), new PendingWrite(PendingWrite.Kind.LOCK, 55, row(7), 3000, 1, 0, null));
        assertThat(delta.blockingWrite(List.<byte[][]>of(new byte[][] {row(6), Keys.recordEnd(TABLE)}), 60)).isEmpty();
    }

    @Test
    void aSplitMovesTheRightHalfWithItsPrewrites() {
        RegionDelta delta = new RegionDelta();
        for (int handle = 1; handle <= 10; handle++) {
            delta.putCommitted(row(handle), 10, bytes("r" + handle));
        }
        delta.prewrite(row(8), put(20, "pending"));
        RegionDelta right = delta.splitOff(row(6));
        assertThat(values(delta, 100)).containsExactly("r1", "r2", "r3", "r4", "r5");
        assertThat(values(right, 100)).containsExactly("r6", "r7", "r8", "r9", "r10");
        assertThat(delta.pendingCount()).isZero();
        assertThat(right.pendingCount()).isEqualTo(1);
        delta.absorb(right);
        assertThat(values(delta, 100)).hasSize(10);
    }

    @Test
    void garbageCollectionKeepsWhatReadsAtOrAfterTheSafePointSee() {
        RegionDelta delta = new RegionDelta();
        delta.putCommitted(row(1), 10, bytes("a1"));
        delta.putCommitted(row(1), 20, bytes("a2"));
        delta.putCommitted(row(1), 30, bytes("a3"));
        delta.putCommitted(row(2), 10, bytes("b1"));
        delta.putCommitted(row(2), 15, null);
        delta.putCommitted(row(3), 40, bytes("c1"));
        List<String> at25 = values(delta, 25);
        List<String> at35 = values(delta, 35);
        RegionDelta aboveStable = new RegionDelta();
        aboveStable.putCommitted(row(2), 10, bytes("b1"));
        aboveStable.putCommitted(row(2), 15, null);
        assertThat(aboveStable.collectGarbage(25, false)).as("a deletion hides older versions in the stable layer")
                .isEqualTo(1);
        assertThat(aboveStable.versionCount()).isEqualTo(1);
        assertThat(delta.collectGarbage(25, true)).isEqualTo(3);
        assertThat(delta.versionCount()).isEqualTo(3);
        assertThat(values(delta, 25)).isEqualTo(at25).containsExactly("a2");
        assertThat(values(delta, 35)).isEqualTo(at35);
        assertThat(delta.collectGarbage(25, true)).isZero();
    }

    @Test
    void itsFileFormatRoundTrips() throws IOException {
        RegionDelta delta = new RegionDelta();
        delta.putCommitted(row(1), 10, bytes("a"));
        delta.putCommitted(row(2), 11, null);
        delta.prewrite(row(3), put(12, "b"));
        delta.prewrite(row(4), new PendingWrite(PendingWrite.Kind.DELETE, 13, row(3), 3000, 2, 14, null));
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            delta.writeTo(out);
        }
        RegionDelta read = RegionDelta.readFrom(new DataInputStream(new ByteArrayInputStream(buffer.toByteArray())));
        assertThat(read.versionCount()).isEqualTo(2);
        assertThat(read.pendingCount()).isEqualTo(2);
        assertThat(values(read, 100)).containsExactly("a");
        read.commit(row(3), 12, 20);
        assertThat(values(read, 100)).containsExactly("a", "b");
        assertThat(read.blockingWrite(List.<byte[][]>of(new byte[][] {row(4), row(5)}), 13).orElseThrow().getValue().forUpdateTs())
                .isEqualTo(14);
    }

    @Test
    void theOldestPendingStartTimestampFollowsPrewritesCommitsAndRollbacks() {
        RegionDelta delta = new RegionDelta();
        assertThat(delta.oldestPendingStartTs()).isEqualTo(Long.MAX_VALUE);
        delta.prewrite(row(1), put(30, "a"));
        delta.prewrite(row(2), put(20, "b"));
        delta.prewrite(row(3), put(40, "c"));
        assertThat(delta.oldestPendingStartTs()).isEqualTo(20);
        delta.prewrite(row(4), put(10, "d"));
        assertThat(delta.oldestPendingStartTs()).isEqualTo(10);
        delta.rollback(row(4), 10);
        assertThat(delta.oldestPendingStartTs()).isEqualTo(20);
        delta.commit(row(2), 20, 25);
        assertThat(delta.oldestPendingStartTs()).isEqualTo(30);
        delta.prewrite(row(1), put(50, "a again"));
        assertThat(delta.oldestPendingStartTs()).isEqualTo(40);
        RegionDelta right = delta.splitOff(row(2));
        assertThat(delta.oldestPendingStartTs()).isEqualTo(50);
        assertThat(right.oldestPendingStartTs()).isEqualTo(40);
        delta.absorb(right);
        assertThat(delta.oldestPendingStartTs()).isEqualTo(40);
    }

    private static PendingWrite put(long startTs, String value) {
        return new PendingWrite(PendingWrite.Kind.PUT, startTs, row(1), 3000, 1, 0, bytes(value));
    }

    private static byte[] row(long handle) {
        return Keys.recordKey(TABLE, handle);
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> values(RegionDelta delta, long readTs) {
        List<String> values = new ArrayList<>();
        try (RowSource rows = delta.rows(List.<byte[][]>of(new byte[][] {Keys.recordPrefix(TABLE), Keys.recordEnd(TABLE)}), readTs)) {
            while (rows.advance()) {
                values.add(new String(rows.value(), StandardCharsets.UTF_8));
            }
        }
        return values;
    }
}
