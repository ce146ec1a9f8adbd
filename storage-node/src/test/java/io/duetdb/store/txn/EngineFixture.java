package io.duetdb.store.txn;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.common.time.Timestamp;
import io.duetdb.store.engine.EngineWriteBatch;
import io.duetdb.store.engine.rocksdb.RocksEngine;

/** A real engine per test, with a fresh reader for each action, as the store opens one per step. */
abstract class EngineFixture {
    @TempDir
    Path directory;
    RocksEngine engine;
    private MvccReader reader;

    @BeforeEach
    void openEngine() {
        engine = RocksEngine.open(directory.resolve("db"), 8 << 20);
    }

    @AfterEach
    void closeEngine() {
        if (reader != null) {
            reader.close();
        }
        engine.close();
    }

    /** A new reader (the previous one closed): a reader sees the engine as it was at its first read. */
    MvccReader reader() {
        if (reader != null) {
            reader.close();
        }
        reader = new MvccReader(engine);
        return reader;
    }

    void write(MvccTxn txn) {
        try (EngineWriteBatch batch = engine.newWriteBatch()) {
            txn.writeTo(batch);
            engine.write(batch, false);
        }
    }

    static long ts(long physical) {
        return new Timestamp(physical, 0).packed();
    }
}
