package io.duetdb.store.engine.rocksdb;

import java.nio.file.Path;

import io.duetdb.store.engine.Engine;
import io.duetdb.store.engine.EngineContractTest;

class RocksEngineTest extends EngineContractTest {
    @Override
    protected Engine open(Path path) {
        return RocksEngine.open(path, 8L << 20);
    }
}
