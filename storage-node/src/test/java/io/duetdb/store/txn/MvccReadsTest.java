package io.duetdb.store.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;

import io.duetdb.common.keys.Keys;
import io.duetdb.common.types.ColumnType;
import io.duetdb.proto.kv.Mutation;
import io.duetdb.proto.kv.Op;

/**
 * Point reads and cursors over keys whose versions are spread over several flushed files, for row keys, longer
 * index keys and short keys; one reader's shared cursor seeking back and forth among them.
 */
class MvccReadsTest extends EngineFixture {
    private static final String LOCK = "(lock)";

    private void commit(byte[] key, String value, long startTs, long commitTs) {
        MvccTxn txn = new MvccTxn();
        Mutation mutation = value == null ? Mutation.newBuilder().setOp(Op.DELETE).setKey(ByteString.copyFrom(key)).build()
                : value.equals(LOCK) ? Mutation.newBuilder().setOp(Op.LOCK).setKey(ByteString.copyFrom(key)).build()
                : Mutation.newBuilder().setOp(Op.PUT).setKey(ByteString.copyFrom(key))
                        .setValue(ByteString.copyFromUtf8(value)).build();
        assertThat(TxnActions.prewrite(reader(), txn, new TxnActions.PrewriteContext(key, startTs, 3000, 0, 1), mutation,
                false)).isNull();
        write(txn);
        MvccTxn commit = new MvccTxn();
        assertThat(TxnActions.commit(reader(), commit, key, startTs, commitTs)).isNull();
        write(commit);
    }

    private static String text(byte[] value) {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    @Test
    void pointReadsFindTheVersionOfEachSnapshotAcrossFlushedFiles() {
        List<byte[]> keys = List.of(Keys.recordKey(7, 1), Keys.recordKey(7, 2),
                Keys.uniqueIndexKey(7, 1, List.of(ColumnType.INT64), List.of(5L)),
                "m".getBytes(StandardCharsets.UTF_8), "meta-key".getBytes(StandardCharsets.UTF_8));
        for (int round = 1; round <= 5; round++) {
            for (byte[] key : keys) {
                commit(key, "v" + round, ts(round * 100), ts(round * 100 + 1));
            }
            engine.flush();
        }
        try (MvccReader shared = new MvccReader(engine)) {
            // One reader seeks back and forth among keys and versions with its one cursor.
            for (int pass = 0; pass < 2; pass++) {
                for (int i = keys.size() - 1; i >= 0; i--) {
                    assertVersions(shared, keys.get(i));
                }
            }
            shared.close();
            assertVersions(shared, keys.get(0));
        }
    }

    private static void assertVersions(MvccReader reader, byte[] key) {
        assertThat(text(reader.valueAt(key, ts(50)))).isNull();
        for (int round = 5; round >= 1; round--) {
            assertThat(text(reader.valueAt(key, ts(round * 100 + 1)))).isEqualTo("v" + round);
            assertThat(text(reader.valueAt(key, ts(round * 100 + 50)))).isEqualTo("v" + round);
            assertThat(reader.writeOfTransaction(key, ts(round * 100)).orElseThrow().commitTs())
                    .isEqualTo(ts(round * 100 + 1));
        }
        assertThat(reader.writeOfTransaction(key, ts(150))).isEmpty();
        assertThat(reader.newestWrite(key, ts(250)).orElseThrow().commitTs()).isEqualTo(ts(201));
        assertThat(reader.newestWrite(key, ts(99))).isEmpty();
        assertThat(text(reader.valueAt(Keys.recordKey(7, 3), Long.MAX_VALUE))).isNull();
        assertThat(text(reader.valueAt(Keys.recordKey(8, 1), Long.MAX_VALUE))).isNull();
    }

    @Test
    void aCursorSkipsVersionsNewerThanItsSnapshotAndDeletedKeys() {
        byte[] hot = Keys.recordKey(7, 1);
        byte[] deleted = Keys.recordKey(7, 2);
        byte[] plain = Keys.recordKey(7, 3);
        commit(hot, "old", ts(10), ts(11));
        commit(deleted, "gone", ts(10), ts(11));
        commit(plain, "plain", ts(10), ts(11));
        engine.flush();
        commit(deleted, null, ts(20), ts(21));
        for (int version = 0; version < 20; version++) {
            commit(hot, "new" + version, ts(100 + 2 * version), ts(101 + 2 * version));
            if (version % 7 == 0) {
                engine.flush();
            }
        }
        assertThat(visible(ts(50))).containsExactly("old", "plain");
        assertThat(visible(ts(15))).containsExactly("old", "gone", "plain");
        assertThat(visible(ts(120))).containsExactly("new9", "plain");
        assertThat(visible(Long.MAX_VALUE)).containsExactly("new19", "plain");
        assertThat(visible(ts(5))).isEmpty();
    }

    @Test
    void theLatestValueFollowsTheNewestRecordPastLockAndRollbackRecords() {
        byte[] locked = Keys.recordKey(7, 1);
        byte[] rolledBack = Keys.recordKey(7, 2);
        byte[] deleted = Keys.recordKey(7, 3);
        byte[] plain = Keys.recordKey(7, 4);
        for (byte[] key : List.of(locked, rolledBack, deleted, plain)) {
            commit(key, "first", ts(10), ts(11));
        }
        engine.flush();
        commit(locked, LOCK, ts(20), ts(21));
        MvccTxn rollback = new MvccTxn();
        assertThat(TxnActions.rollback(reader(), rollback, rolledBack, ts(30))).isNull();
        write(rollback);
        commit(deleted, null, ts(40), ts(41));
        commit(plain, "second", ts(50), ts(51));
        for (byte[] key : List.of(locked, rolledBack, deleted, plain, Keys.recordKey(7, 5))) {
            MvccReader reader = reader();
            assertThat(text(reader.latestValue(key, reader.newestWrite(key, Long.MAX_VALUE))))
                    .isEqualTo(text(reader.valueAt(key, Long.MAX_VALUE)));
        }
        MvccReader reader = reader();
        assertThat(text(reader.latestValue(locked, reader.newestWrite(locked, Long.MAX_VALUE)))).isEqualTo("first");
    }

    private List<String> visible(long ts) {
        List<String> values = new ArrayList<>();
        try (MvccCursor cursor = new MvccCursor(engine, Keys.recordKey(7, 0), Keys.recordKey(7, 100), ts)) {
            while (cursor.advance()) {
                assertThat(Keys.userKeyOf(cursor.dataKey())).isEqualTo(cursor.userKey());
                values.add(text(cursor.value()));
            }
        }
        return values;
    }
}
