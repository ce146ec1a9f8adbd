package io.duetdb.store.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;

import io.duetdb.common.txn.Write;
import io.duetdb.proto.kv.KeyError;
import io.duetdb.proto.kv.Mutation;
import io.duetdb.proto.kv.Op;

/** Percolator's rules, one action at a time, on a real engine. */
class TxnActionsTest extends EngineFixture {
    private static byte[] key(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private KeyError prewrite(String key, String value, long startTs) {
        MvccTxn txn = new MvccTxn();
        Mutation mutation = value == null ? Mutation.newBuilder().setOp(Op.DELETE).setKey(ByteString.copyFromUtf8(key)).build()
                : Mutation.newBuilder().setOp(Op.PUT).setKey(ByteString.copyFromUtf8(key)).setValue(ByteString.copyFromUtf8(value)).build();
        KeyError error = TxnActions.prewrite(reader(), txn, new TxnActions.PrewriteContext(key(key), startTs, 3000, 0, 1),
                mutation, false);
        if (error == null) {
            write(txn);
        } else {
            assertThat(txn.isEmpty()).isTrue();
        }
        return error;
    }

    private KeyError commit(String key, long startTs, long commitTs) {
        MvccTxn txn = new MvccTxn();
        KeyError error = TxnActions.commit(reader(), txn, key(key), startTs, commitTs);
        write(txn);
        return error;
    }

    private KeyError rollback(String key, long startTs) {
        MvccTxn txn = new MvccTxn();
        KeyError error = TxnActions.rollback(reader(), txn, key(key), startTs);
        write(txn);
        return error;
    }

    private String read(String key, long ts) {
        byte[] value = reader().valueAt(key(key), ts);
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    private KeyError checkNotExists(String key, long startTs) {
        MvccTxn txn = new MvccTxn();
        Mutation mutation = Mutation.newBuilder().setOp(Op.CHECK_NOT_EXISTS).setKey(ByteString.copyFromUtf8(key)).build();
        return TxnActions.prewrite(reader(), txn, new TxnActions.PrewriteContext(key(key), startTs, 3000, 0, 1),
                mutation, false);
    }

    @Test
    void anInsertCheckFindsTheLatestValuePastLockRecords() {
        assertThat(checkNotExists("absent", ts(5))).isNull();
        assertThat(prewrite("k", "v", ts(10))).isNull();
        assertThat(commit("k", ts(10), ts(11))).isNull();
        assertThat(checkNotExists("k", ts(20)).hasAlreadyExist()).isTrue();
        MvccTxn lockOnly = new MvccTxn();
        assertThat(TxnActions.prewrite(reader(), lockOnly, new TxnActions.PrewriteContext(key("k"), ts(30), 3000, 0, 1),
                Mutation.newBuilder().setOp(Op.LOCK).setKey(ByteString.copyFromUtf8("k")).build(), false)).isNull();
        write(lockOnly);
        assertThat(commit("k", ts(30), ts(31))).isNull();
        assertThat(checkNotExists("k", ts(40)).hasAlreadyExist()).as("a LOCK record does not hide the value").isTrue();
        assertThat(prewrite("k", null, ts(50))).isNull();
        assertThat(commit("k", ts(50), ts(51))).isNull();
        assertThat(checkNotExists("k", ts(60))).isNull();
    }

    @Test
    void committedValuesAreVisibleFromTheirCommitTimestamp() {
        assertThat(prewrite("k", "v1", ts(10))).isNull();
        assertThat(reader().lock(key("k")).startTs()).isEqualTo(ts(10));
        assertThat(commit("k", ts(10), ts(11))).isNull();
        assertThat(reader().lock(key("k"))).isNull();
        assertThat(read("k", ts(10))).isNull();
        assertThat(read("k", ts(11))).isEqualTo("v1");
        String large = "x".repeat(Write.SHORT_VALUE_MAX_BYTES + 1);
        assertThat(prewrite("k", large, ts(20))).isNull();
        assertThat(commit("k", ts(20), ts(21))).isNull();
        assertThat(read("k", ts(21))).isEqualTo(large);
        assertThat(read("k", ts(15))).isEqualTo("v1");
        assertThat(prewrite("k", null, ts(30))).isNull();
        assertThat(commit("k", ts(30), ts(31))).isNull();
        assertThat(read("k", ts(40))).isNull();
        // Committing again is harmless (a retried RPC).
        assertThat(commit("k", ts(30), ts(31))).isNull();
    }

    @Test
    void conflictsAndLocksStopAPrewrite() {
        assertThat(prewrite("k", "a", ts(10))).isNull();
        assertThat(prewrite("k", "b", ts(12)).hasLocked()).isTrue();
        assertThat(prewrite("k", "a", ts(10))).isNull();
        assertThat(commit("k", ts(10), ts(15))).isNull();
        KeyError conflict = prewrite("k", "b", ts(12));
        assertThat(conflict.hasConflict()).isTrue();
        assertThat(conflict.getConflict().getConflictCommitTs()).isEqualTo(ts(15));
        assertThat(prewrite("k", "c", ts(16))).isNull();
    }

    @Test
    void aRolledBackTransactionNeverCommits() {
        assertThat(prewrite("k", "a", ts(10))).isNull();
        assertThat(rollback("k", ts(10))).isNull();
        assertThat(commit("k", ts(10), ts(11)).hasRolledBack()).isTrue();
        // A prewrite arriving after the rollback (a delayed message) fails too.
        assertThat(prewrite("k", "a", ts(10)).hasRolledBack()).isTrue();
        // Rolling back a transaction that never reached the key leaves a record that stops its late prewrite.
        assertThat(rollback("other", ts(20))).isNull();
        assertThat(prewrite("other", "late", ts(20)).hasRolledBack()).isTrue();
        // A committed transaction cannot be rolled back.
        assertThat(prewrite("k", "b", ts(30))).isNull();
        assertThat(commit("k", ts(30), ts(31))).isNull();
        assertThat(rollback("k", ts(30)).getCommitted().getCommitTs()).isEqualTo(ts(31));
        assertThat(commit("k", ts(40), ts(39)).getInvalid()).contains("not after start ts");
    }

    @Test
    void checkTxnStatusFollowsTheLockTtl() {
        assertThat(prewrite("p", "a", ts(1_000))).isNull();
        assertThat(TxnActions.checkTxnStatus(reader(), key("p"), ts(1_000), ts(2_000), true))
                .isInstanceOf(TxnActions.TxnStatus.Alive.class);
        assertThat(TxnActions.checkTxnStatus(reader(), key("p"), ts(1_000), ts(4_000), true))
                .isInstanceOf(TxnActions.TxnStatus.ShouldRollBack.class);
        assertThat(TxnActions.checkTxnStatus(reader(), key("p"), ts(500), ts(4_000), false))
                .isInstanceOf(TxnActions.TxnStatus.NotFound.class);
        assertThat(commit("p", ts(1_000), ts(1_001))).isNull();
        assertThat(TxnActions.checkTxnStatus(reader(), key("p"), ts(1_000), ts(4_000), true))
                .isEqualTo(new TxnActions.TxnStatus.Committed(ts(1_001)));
    }

    @Test
    void pessimisticLocksCheckForUpdateTsAndAreNeededByPrewrite() {
        MvccTxn txn = new MvccTxn();
        assertThat(prewrite("k", "a", ts(10))).isNull();
        assertThat(commit("k", ts(10), ts(20))).isNull();
        TxnActions.PessimisticLockOutcome stale = TxnActions.pessimisticLock(reader(), txn, key("k"), key("k"), ts(15), ts(15), 3000, true);
        assertThat(stale.error().hasConflict()).isTrue();
        TxnActions.PessimisticLockOutcome locked = TxnActions.pessimisticLock(reader(), txn, key("k"), key("k"), ts(15), ts(21), 3000, true);
        assertThat(locked.error()).isNull();
        assertThat(new String(locked.value(), StandardCharsets.UTF_8)).isEqualTo("a");
        write(txn);
        // Readers are not blocked by a pessimistic lock; writers are.
        assertThat(reader().lock(key("k")).type().blocksReads()).isFalse();
        assertThat(prewrite("k", "other", ts(22)).hasLocked()).isTrue();
        MvccTxn missing = new MvccTxn();
        KeyError notFound = TxnActions.prewrite(reader(), missing, new TxnActions.PrewriteContext(key("x"), ts(15), 3000, ts(21), 1),
                Mutation.newBuilder().setOp(Op.PUT).setKey(ByteString.copyFromUtf8("x")).build(), true);
        assertThat(notFound.hasPessimisticLockNotFound()).isTrue();
    }

    @Test
    void garbageCollectionKeepsWhatTheSafePointCanRead() {
        for (int i = 1; i <= 3; i++) {
            assertThat(prewrite("k", "v" + i + "x".repeat(300), ts(i * 10))).isNull();
            assertThat(commit("k", ts(i * 10), ts(i * 10 + 1))).isNull();
        }
        assertThat(TxnActions.hasGarbage(reader(), key("k"), ts(15))).isFalse();
        MvccTxn txn = new MvccTxn();
        TxnActions.garbageCollect(reader(), txn, key("k"), ts(25));
        write(txn);
        assertThat(read("k", ts(25))).startsWith("v2");
        assertThat(read("k", ts(35))).startsWith("v3");
        assertThat(read("k", ts(15))).isNull();
        assertThat(prewrite("k", null, ts(40))).isNull();
        assertThat(commit("k", ts(40), ts(41))).isNull();
        MvccTxn all = new MvccTxn();
        TxnActions.garbageCollect(reader(), all, key("k"), ts(50));
        write(all);
        assertThat(reader().newestWrite(key("k"), Long.MAX_VALUE)).isEmpty();
        assertThat(TxnActions.hasGarbage(reader(), key("k"), ts(50))).isFalse();

        // Rolled-back records below the safe point go; the newest value stays; records above it stay.
        assertThat(prewrite("r", "kept", ts(60))).isNull();
        assertThat(commit("r", ts(60), ts(61))).isNull();
        assertThat(prewrite("r", "dropped", ts(62))).isNull();
        assertThat(rollback("r", ts(62))).isNull();
        assertThat(rollback("r", ts(70))).isNull();
        MvccTxn rolledBack = new MvccTxn();
        TxnActions.garbageCollect(reader(), rolledBack, key("r"), ts(65));
        write(rolledBack);
        assertThat(reader().writeOfTransaction(key("r"), ts(62))).isEmpty();
        assertThat(reader().writeOfTransaction(key("r"), ts(70))).isPresent();
        assertThat(read("r", ts(80))).isEqualTo("kept");
    }
    @Test
    void onePhaseCommitWritesTheCommitRecordWithoutALock() {
        MvccTxn locking = new MvccTxn();
        assertThat(TxnActions.pessimisticLock(reader(), locking, key("p"), key("p"), ts(10), ts(12), 3000, false).error()).isNull();
        write(locking);
        MvccTxn txn = new MvccTxn();
        TxnActions.PrewriteContext onePhase = new TxnActions.PrewriteContext(key("p"), ts(10), 3000, ts(12), 2, ts(13));
        assertThat(TxnActions.prewrite(reader(), txn, onePhase, Mutation.newBuilder().setOp(Op.PUT)
                .setKey(ByteString.copyFromUtf8("p")).setValue(ByteString.copyFromUtf8("one")).build(), true)).isNull();
        assertThat(TxnActions.prewrite(reader(), txn, onePhase, Mutation.newBuilder().setOp(Op.PUT)
                .setKey(ByteString.copyFromUtf8("q")).setValue(ByteString.copyFromUtf8("x".repeat(400))).build(), false)).isNull();
        write(txn);
        assertThat(reader().lock(key("p"))).as("the pessimistic lock is released").isNull();
        assertThat(reader().lock(key("q"))).isNull();
        assertThat(read("p", ts(12))).isNull();
        assertThat(read("p", ts(13))).isEqualTo("one");
        assertThat(read("q", ts(13))).hasSize(400);
        // The same request again (a retry) finds its own commit and changes nothing.
        MvccTxn retry = new MvccTxn();
        assertThat(TxnActions.prewrite(reader(), retry, onePhase, Mutation.newBuilder().setOp(Op.PUT)
                .setKey(ByteString.copyFromUtf8("q")).setValue(ByteString.copyFromUtf8("y")).build(), false)).isNull();
        assertThat(retry.isEmpty()).isTrue();
        // A commit ts not after the start ts is refused.
        assertThat(TxnActions.prewrite(reader(), new MvccTxn(), new TxnActions.PrewriteContext(key("r"), ts(20), 3000, 0, 1, ts(20)),
                Mutation.newBuilder().setOp(Op.PUT).setKey(ByteString.copyFromUtf8("r")).build(), false).hasInvalid()).isTrue();
    }

    private void importCommitted(String key, String value, long commitTs) {
        MvccTxn txn = new MvccTxn();
        TxnActions.importCommitted(txn, key(key), value.getBytes(StandardCharsets.UTF_8), commitTs);
        write(txn);
    }

    @Test
    void anImportedVersionIsVisibleFromItsTimestampAndNewerCommitsOverrideIt() {
        // A writer that deleted the key after the import's timestamp committed first: its delete stays the newest.
        assertThat(prewrite("deleted", "v", ts(10))).isNull();
        assertThat(commit("deleted", ts(10), ts(11))).isNull();
        assertThat(prewrite("deleted", null, ts(30))).isNull();
        assertThat(commit("deleted", ts(30), ts(31))).isNull();
        importCommitted("deleted", "entry", ts(20));
        assertThat(read("deleted", ts(19))).isEqualTo("v");
        assertThat(read("deleted", ts(25))).isEqualTo("entry");
        assertThat(read("deleted", ts(40))).isNull();

        // Values longer than a write record holds go to the default column family, as a commit's do.
        importCommitted("long", "x".repeat(400), ts(20));
        assertThat(read("long", ts(19))).isNull();
        assertThat(read("long", ts(20))).hasSize(400);

        // A lock stays, and its transaction's later commit overrides the imported version.
        assertThat(prewrite("locked", "new", ts(15))).isNull();
        importCommitted("locked", "entry", ts(20));
        assertThat(reader().lock(key("locked"))).isNotNull();
        assertThat(commit("locked", ts(15), ts(22))).isNull();
        assertThat(read("locked", ts(21))).isEqualTo("entry");
        assertThat(read("locked", ts(22))).isEqualTo("new");

        // A transaction that started before the imported version and writes the key afterwards conflicts with it.
        importCommitted("late", "entry", ts(20));
        assertThat(prewrite("late", "mine", ts(18))).satisfies(error -> assertThat(error.hasConflict()).isTrue());
    }

    @Test
    void anInsertIsAPutThatFailsWhenTheKeyHasAValue() {
        assertThat(prewrite("taken", "v", ts(10))).isNull();
        assertThat(commit("taken", ts(10), ts(11))).isNull();
        assertThat(prewrite("gone", "v", ts(10))).isNull();
        assertThat(commit("gone", ts(10), ts(11))).isNull();
        assertThat(prewrite("gone", null, ts(12))).isNull();
        assertThat(commit("gone", ts(12), ts(13))).isNull();

        assertThat(insert("taken", ts(20)).hasAlreadyExist()).isTrue();
        assertThat(reader().lock(key("taken"))).as("a refused insert locks nothing").isNull();
        assertThat(insert("gone", ts(20))).isNull();
        assertThat(insert("new", ts(20))).isNull();
        assertThat(commit("gone", ts(20), ts(21))).isNull();
        assertThat(commit("new", ts(20), ts(21))).isNull();
        assertThat(read("gone", ts(30))).isEqualTo("inserted");
        assertThat(read("new", ts(30))).isEqualTo("inserted");
    }

    @Test
    void aSecondInsertOfTheKeyInOneTransactionIsADuplicateUnlessItIsTheSameValue() {
        assertThat(insert("row", ts(10))).isNull();
        assertThat(insert("row", ts(10))).as("the same insert again (a retried writer)").isNull();
        assertThat(insert("row", ts(10), "another row").hasAlreadyExist()).isTrue();
        String longValue = "x".repeat(1000);
        assertThat(insert("long", ts(10), longValue)).isNull();
        assertThat(insert("long", ts(10), longValue)).isNull();
        assertThat(insert("long", ts(10), longValue + "y").hasAlreadyExist()).isTrue();
        assertThat(commit("row", ts(10), ts(11))).isNull();
        assertThat(read("row", ts(20))).isEqualTo("inserted");
    }

    private KeyError insert(String key, long startTs) {
        return insert(key, startTs, "inserted");
    }

    private KeyError insert(String key, long startTs, String value) {
        MvccTxn txn = new MvccTxn();
        KeyError error = TxnActions.prewrite(reader(), txn, new TxnActions.PrewriteContext(key(key), startTs, 3000, 0, 1),
                Mutation.newBuilder().setOp(Op.INSERT).setKey(ByteString.copyFromUtf8(key))
                        .setValue(ByteString.copyFromUtf8(value)).build(), false);
        if (error == null) {
            write(txn);
        }
        return error;
    }
}
