package io.duetdb.store.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.common.keys.Keys;

/** What every {@link Engine} must do; subclassed per implementation. */
public abstract class EngineContractTest {
    @TempDir
    protected Path directory;
    protected Engine engine;

    protected abstract Engine open(Path path);

    @BeforeEach
    void openEngine() {
        engine = open(directory.resolve("engine"));
    }

    @AfterEach
    void closeEngine() {
        engine.close();
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private void put(ColumnFamily cf, String key, String value) {
        try (EngineWriteBatch batch = engine.newWriteBatch()) {
            batch.put(cf, bytes(key), bytes(value));
            engine.write(batch, false);
        }
    }

    private List<String> keys(EngineIterator iterator, boolean reverse) {
        List<String> keys = new ArrayList<>();
        if (reverse) {
            for (iterator.seekToLast(); iterator.valid(); iterator.prev()) {
                keys.add(new String(iterator.key(), StandardCharsets.UTF_8));
            }
        } else {
            for (iterator.seekToFirst(); iterator.valid(); iterator.next()) {
                keys.add(new String(iterator.key(), StandardCharsets.UTF_8));
            }
        }
        return keys;
    }

    @Test
    void columnFamiliesAreSeparateKeySpaces() {
        put(ColumnFamily.DEFAULT, "k", "default");
        put(ColumnFamily.WRITE, "k", "write");
        assertThat(engine.get(ColumnFamily.DEFAULT, bytes("k"))).isEqualTo(bytes("default"));
        assertThat(engine.get(ColumnFamily.WRITE, bytes("k"))).isEqualTo(bytes("write"));
        assertThat(engine.get(ColumnFamily.LOCK, bytes("k"))).isNull();
    }

    @Test
    void batchesApplyAtomicallyWithRangeDeletes() {
        for (String key : List.of("a", "b", "c", "d")) {
            put(ColumnFamily.DEFAULT, key, key);
        }
        try (EngineWriteBatch batch = engine.newWriteBatch()) {
            batch.deleteRange(ColumnFamily.DEFAULT, bytes("b"), bytes("d"));
            batch.put(ColumnFamily.RAFT, bytes("applied"), bytes("7"));
            batch.delete(ColumnFamily.DEFAULT, bytes("a"));
            assertThat(batch.count()).isEqualTo(3);
            engine.write(batch, true);
        }
        try (EngineIterator iterator = engine.iterator(ColumnFamily.DEFAULT, null, null)) {
            assertThat(keys(iterator, false)).containsExactly("d");
        }
        assertThat(engine.get(ColumnFamily.RAFT, bytes("applied"))).isEqualTo(bytes("7"));
    }

    @Test
    void sortedPutsLandWithTheBatchInOrderOrNot() {
        put(ColumnFamily.WRITE, "m-existing", "old");
        try (EngineSnapshot before = engine.snapshot(); EngineWriteBatch batch = engine.newWriteBatch()) {
            for (int i = 0; i < 5000; i++) {
                batch.putSorted(ColumnFamily.WRITE, bytes(String.format("k%05d", i)), bytes("v" + i));
            }
            // Out of order: written all the same.
            batch.putSorted(ColumnFamily.WRITE, bytes("k00007x"), bytes("late"));
            batch.putSorted(ColumnFamily.DEFAULT, bytes("few"), bytes("1"));
            batch.put(ColumnFamily.RAFT, bytes("applied"), bytes("9"));
            assertThat(batch.count()).isEqualTo(5003);
            engine.write(batch, false);
            assertThat(before.get(ColumnFamily.WRITE, bytes("k00042"))).isNull();
        }
        assertThat(engine.get(ColumnFamily.WRITE, bytes("k00042"))).isEqualTo(bytes("v42"));
        assertThat(engine.get(ColumnFamily.WRITE, bytes("k04999"))).isEqualTo(bytes("v4999"));
        assertThat(engine.get(ColumnFamily.WRITE, bytes("k00007x"))).isEqualTo(bytes("late"));
        assertThat(engine.get(ColumnFamily.WRITE, bytes("m-existing"))).isEqualTo(bytes("old"));
        assertThat(engine.get(ColumnFamily.DEFAULT, bytes("few"))).isEqualTo(bytes("1"));
        assertThat(engine.get(ColumnFamily.RAFT, bytes("applied"))).isEqualTo(bytes("9"));
        try (EngineIterator iterator = engine.iterator(ColumnFamily.WRITE, bytes("k"), bytes("l"))) {
            assertThat(keys(iterator, false)).hasSize(5001);
        }
    }

    @Test
    void snapshotsDoNotSeeLaterWrites() {
        put(ColumnFamily.DEFAULT, "k", "old");
        try (EngineSnapshot snapshot = engine.snapshot()) {
            put(ColumnFamily.DEFAULT, "k", "new");
            put(ColumnFamily.DEFAULT, "k2", "new");
            assertThat(snapshot.get(ColumnFamily.DEFAULT, bytes("k"))).isEqualTo(bytes("old"));
            try (EngineIterator iterator = snapshot.iterator(ColumnFamily.DEFAULT, null, null)) {
                assertThat(keys(iterator, false)).containsExactly("k");
            }
        }
        assertThat(engine.get(ColumnFamily.DEFAULT, bytes("k"))).isEqualTo(bytes("new"));
    }

    @Test
    void iteratorsRespectBoundsBothWays() {
        for (String key : List.of("a", "b", "c", "d", "e")) {
            put(ColumnFamily.DEFAULT, key, key);
        }
        try (EngineIterator iterator = engine.iterator(ColumnFamily.DEFAULT, bytes("b"), bytes("e"))) {
            assertThat(keys(iterator, false)).containsExactly("b", "c", "d");
            assertThat(keys(iterator, true)).containsExactly("d", "c", "b");
            iterator.seek(bytes("bb"));
            assertThat(iterator.key()).isEqualTo(bytes("c"));
            iterator.seekForPrev(bytes("cc"));
            assertThat(iterator.key()).isEqualTo(bytes("c"));
        }
    }

    @Test
    void ingestsSortedFilesAndMeasuresSize() {
        Path file = directory.resolve("part.sst");
        try (SstFileBuilder builder = engine.newSstFile(ColumnFamily.WRITE, file)) {
            for (int i = 0; i < 1000; i++) {
                builder.add(bytes(String.format("key%05d", i)), bytes("value-" + i));
            }
            assertThat(builder.finish()).isTrue();
        }
        engine.ingest(ColumnFamily.WRITE, List.of(file));
        assertThat(engine.get(ColumnFamily.WRITE, bytes("key00500"))).isEqualTo(bytes("value-500"));
        assertThat(engine.approximateSize(bytes("key"), bytes("kez"))).isPositive();
        try (SstFileBuilder empty = engine.newSstFile(ColumnFamily.WRITE, directory.resolve("empty.sst"))) {
            assertThat(empty.finish()).isFalse();
        }
        assertThat(directory.resolve("empty.sst")).doesNotExist();
    }

    @Test
    void versionIteratorsFindEachKeysVersionsWhereverTheyLie() {
        // User keys whose version keys reach the filter prefix (data keys at it and beyond); each version in
        // another place: two ingested files that overlap and the memtable.
        List<byte[]> dataKeys = new ArrayList<>();
        for (int length = 16; length < 40; length++) {
            byte[] userKey = new byte[length];
            Arrays.fill(userKey, (byte) 't');
            dataKeys.add(Keys.dataKey(userKey));
            userKey[length - 1] = 'u';
            dataKeys.add(Keys.dataKey(userKey));
        }
        assertThat(dataKeys).allMatch(key -> key.length >= Keys.VERSION_FILTER_PREFIX_BYTES);
        dataKeys.sort(Arrays::compareUnsigned);
        for (long ts : new long[] {10, 20}) {
            Path file = directory.resolve("versions-" + ts + ".sst");
            try (SstFileBuilder builder = engine.newSstFile(ColumnFamily.WRITE, file)) {
                for (int i = 0; i < dataKeys.size(); i += ts == 10 ? 1 : 2) {
                    builder.add(Keys.versionKeyOf(dataKeys.get(i), ts), bytes("v" + ts));
                }
                assertThat(builder.finish()).isTrue();
            }
            engine.ingest(ColumnFamily.WRITE, List.of(file));
        }
        try (EngineWriteBatch batch = engine.newWriteBatch()) {
            for (int i = 0; i < dataKeys.size(); i += 3) {
                batch.put(ColumnFamily.WRITE, Keys.versionKeyOf(dataKeys.get(i), 30), bytes("v30"));
            }
            engine.write(batch, false);
        }
        try (EngineIterator versions = engine.versionIterator(ColumnFamily.WRITE)) {
            for (byte[] dataKey : dataKeys) {
                for (long readTs : new long[] {5, 15, 25, 35}) {
                    byte[] from = Keys.versionKeyOf(dataKey, readTs);
                    List<String> expected;
                    try (EngineIterator bounded = engine.iterator(ColumnFamily.WRITE, from, endOfVersions(dataKey))) {
                        expected = versionsFrom(bounded, from, dataKey);
                    }
                    assertThat(versionsFrom(versions, from, dataKey)).as("versions of %s at %d",
                            Arrays.toString(dataKey), readTs).isEqualTo(expected);
                }
            }
        }
        try (EngineIterator versions = engine.versionIterator(ColumnFamily.WRITE)) {
            assertThat(versionsFrom(versions, Keys.versionKeyOf(dataKeys.get(0), 35), dataKeys.get(0)))
                    .containsExactly("v30", "v20", "v10");
        }
    }

    private static byte[] endOfVersions(byte[] dataKey) {
        byte[] end = dataKey.clone();
        end[end.length - 1]++;
        return end;
    }

    private static List<String> versionsFrom(EngineIterator iterator, byte[] from, byte[] dataKey) {
        List<String> values = new ArrayList<>();
        for (iterator.seek(from); iterator.valid(); iterator.next()) {
            byte[] key = iterator.key();
            if (key.length != dataKey.length + 8 || !Arrays.equals(key, 0, dataKey.length, dataKey, 0, dataKey.length)) {
                break;
            }
            values.add(new String(iterator.value(), StandardCharsets.UTF_8));
        }
        return values;
    }

    @Test
    void reopenedEngineKeepsSyncedWrites() {
        try (EngineWriteBatch batch = engine.newWriteBatch()) {
            batch.put(ColumnFamily.DEFAULT, bytes("durable"), bytes("yes"));
            engine.write(batch, true);
        }
        engine.close();
        engine = open(directory.resolve("engine"));
        assertThat(engine.get(ColumnFamily.DEFAULT, bytes("durable"))).isEqualTo(bytes("yes"));
    }
}
