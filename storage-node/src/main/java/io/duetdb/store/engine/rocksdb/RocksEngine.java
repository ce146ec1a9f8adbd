package io.duetdb.store.engine.rocksdb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.EnvOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.Range;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;
import org.rocksdb.SstFileWriter;
import org.rocksdb.Status;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.common.keys.Keys;
import io.duetdb.store.engine.ColumnFamily;
import io.duetdb.store.engine.Engine;
import io.duetdb.store.engine.EngineException;
import io.duetdb.store.engine.EngineIterator;
import io.duetdb.store.engine.EngineSnapshot;
import io.duetdb.store.engine.EngineWriteBatch;
import io.duetdb.store.engine.SstFileBuilder;

/** {@link Engine} on one RocksDB instance with a column family per {@link ColumnFamily}. */
public final class RocksEngine implements Engine {
    private static final Logger LOG = LoggerFactory.getLogger(RocksEngine.class);

    static {
        RocksDB.loadLibrary();
    }

    private final Path path;
    private final RocksDB db;
    private final DBOptions dbOptions;
    private final LRUCache blockCache;
    private final List<ColumnFamilyOptions> cfOptions = new ArrayList<>();
    private final Map<ColumnFamily, ColumnFamilyHandle> handles = new EnumMap<>(ColumnFamily.class);
    private final List<ColumnFamilyHandle> allHandles = new ArrayList<>();
    private final WriteOptions syncWrite = new WriteOptions().setSync(true);
    private final WriteOptions asyncWrite = new WriteOptions().setSync(false);
    /** Where sorted puts become files before they are ingested (moved into the engine). */
    private final Path ingestDirectory;
    private final java.util.concurrent.atomic.AtomicLong ingestFiles = new java.util.concurrent.atomic.AtomicLong();

    private RocksEngine(Path path, RocksDB db, DBOptions dbOptions, LRUCache blockCache) {
        this.path = path;
        this.db = db;
        this.dbOptions = dbOptions;
        this.blockCache = blockCache;
        this.ingestDirectory = path.resolveSibling(path.getFileName() + "-ingest");
        try {
            if (Files.exists(ingestDirectory)) {
                try (var leftovers = Files.list(ingestDirectory)) {
                    for (Path leftover : leftovers.toList()) {
                        Files.deleteIfExists(leftover);
                    }
                }
            }
            Files.createDirectories(ingestDirectory);
        } catch (java.io.IOException e) {
            throw new EngineException("cannot prepare " + ingestDirectory + ": " + e.getMessage(), e, false);
        }
    }

    /** Opens (or creates) the engine under {@code path}; checksums of the log and manifest are verified. */
    public static RocksEngine open(Path path, long blockCacheBytes) {
        try {
            Files.createDirectories(path);
        } catch (java.io.IOException e) {
            throw new EngineException("cannot create engine directory " + path + ": " + e.getMessage(), e, false);
        }
        LRUCache cache = new LRUCache(blockCacheBytes);
        DBOptions dbOptions = new DBOptions()
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                .setParanoidChecks(true)
                .setMaxBackgroundJobs(2)
                .setKeepLogFileNum(3);
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        List<ColumnFamilyOptions> options = new ArrayList<>();
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions(cache, ColumnFamily.DEFAULT, options)));
        for (ColumnFamily cf : ColumnFamily.values()) {
            if (cf != ColumnFamily.DEFAULT) {
                descriptors.add(new ColumnFamilyDescriptor(cf.engineName().getBytes(), cfOptions(cache, cf, options)));
            }
        }
        List<ColumnFamilyHandle> handleList = new ArrayList<>();
        RocksDB db;
        try {
            db = RocksDB.open(dbOptions, path.toString(), descriptors, handleList);
        } catch (RocksDBException e) {
            options.forEach(ColumnFamilyOptions::close);
            dbOptions.close();
            cache.close();
            throw new EngineException("cannot open the engine at " + path + ": " + describe(e), e, isNoSpace(e));
        }
        RocksEngine engine = new RocksEngine(path, db, dbOptions, cache);
        engine.cfOptions.addAll(options);
        engine.allHandles.addAll(handleList);
        int index = 0;
        engine.handles.put(ColumnFamily.DEFAULT, handleList.get(index++));
        for (ColumnFamily cf : ColumnFamily.values()) {
            if (cf != ColumnFamily.DEFAULT) {
                engine.handles.put(cf, handleList.get(index++));
            }
        }
        LOG.info("engine opened at {} ({} MiB block cache)", path, blockCacheBytes >> 20);
        return engine;
    }

    private static ColumnFamilyOptions cfOptions(LRUCache cache, ColumnFamily cf, List<ColumnFamilyOptions> created) {
        BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockCache(cache).setBlockSize(16 * 1024);
        if (cf != ColumnFamily.RAFT) {
            table.setFilterPolicy(new BloomFilter(10, false)).setWholeKeyFiltering(cf != ColumnFamily.WRITE);
        }
        ColumnFamilyOptions options = new ColumnFamilyOptions();
        if (cf == ColumnFamily.WRITE) {
            // Versions are read by seeking, never by whole key: filters of their data key let a point read skip the
            // files (and memtables) that hold no version of it instead of searching each.
            options.useFixedLengthPrefixExtractor(Keys.VERSION_FILTER_PREFIX_BYTES).setMemtablePrefixBloomSizeRatio(0.1);
        }
        if (cf == ColumnFamily.LOCK) {
            // Nearly every lock read is of a key without a lock, whose puts and deletes fill the memtables: a
            // memtable filter answers those without searching the skip lists (two thirds of a lock read's time).
            options.setMemtablePrefixBloomSizeRatio(0.1).setMemtableWholeKeyFiltering(true);
        }
        options.setTableFormatConfig(table)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setWriteBufferSize(32L << 20)
                .setMaxWriteBufferNumber(3)
                .setLevelCompactionDynamicLevelBytes(true);
        created.add(options);
        return options;
    }

    private ColumnFamilyHandle handle(ColumnFamily cf) {
        return handles.get(cf);
    }

    @Override
    public byte[] get(ColumnFamily cf, byte[] key) {
        try {
            return db.get(handle(cf), key);
        } catch (RocksDBException e) {
            throw failure("read", e);
        }
    }

    @Override
    public EngineSnapshot snapshot() {
        Snapshot snapshot = db.getSnapshot();
        return new RocksSnapshot(snapshot);
    }

    @Override
    public EngineIterator iterator(ColumnFamily cf, byte[] lower, byte[] upper) {
        return new RocksEngineIterator(cf, lower, upper, null, false);
    }

    @Override
    public EngineIterator versionIterator(ColumnFamily cf) {
        return new RocksEngineIterator(cf, null, null, null, true);
    }

    @Override
    public EngineWriteBatch newWriteBatch() {
        return new RocksWriteBatch();
    }

    @Override
    public void write(EngineWriteBatch batch, boolean sync) {
        RocksWriteBatch rocksBatch = (RocksWriteBatch) batch;
        // Sorted puts first: a crash before the batch (and the applied index in it) leaves them to be written again.
        for (Map.Entry<ColumnFamily, SortedPuts> sorted : rocksBatch.sorted.entrySet()) {
            SortedPuts puts = sorted.getValue();
            if (puts.keys.size() >= MIN_INGESTED_PUTS) {
                ingestSorted(sorted.getKey(), puts);
            } else {
                for (int i = 0; i < puts.keys.size(); i++) {
                    rocksBatch.put(sorted.getKey(), puts.keys.get(i), puts.values.get(i));
                }
            }
        }
        rocksBatch.sorted.clear();
        try {
            db.write(sync ? syncWrite : asyncWrite, rocksBatch.batch);
        } catch (RocksDBException e) {
            throw failure("write", e);
        }
    }

    private void ingestSorted(ColumnFamily cf, SortedPuts puts) {
        Path file = ingestDirectory.resolve(ingestFiles.incrementAndGet() + ".sst");
        try (SstFileBuilder builder = newSstFile(cf, file)) {
            for (int i = 0; i < puts.keys.size(); i++) {
                builder.add(puts.keys.get(i), puts.values.get(i));
            }
            if (builder.finish()) {
                ingest(cf, List.of(file));
            }
        }
    }

    @Override
    public void syncWal() {
        try {
            db.syncWal();
        } catch (RocksDBException e) {
            throw failure("sync the write-ahead log", e);
        }
    }

    @Override
    public long approximateSize(byte[] start, byte[] end) {
        long total = 0;
        for (ColumnFamily cf : ColumnFamily.DATA) {
            try (Slice from = new Slice(start); Slice to = new Slice(end)) {
                long[] sizes = db.getApproximateSizes(handle(cf), List.of(new Range(from, to)),
                        org.rocksdb.SizeApproximationFlag.INCLUDE_FILES, org.rocksdb.SizeApproximationFlag.INCLUDE_MEMTABLES);
                total += sizes[0];
            }
        }
        return total;
    }

    @Override
    public SstFileBuilder newSstFile(ColumnFamily cf, Path file) {
        return new RocksSstFileBuilder(cf, file);
    }

    @Override
    public void ingest(ColumnFamily cf, List<Path> files) {
        if (files.isEmpty()) {
            return;
        }
        try (IngestExternalFileOptions options = new IngestExternalFileOptions().setMoveFiles(true)) {
            db.ingestExternalFile(handle(cf), files.stream().map(Path::toString).toList(), options);
        } catch (RocksDBException e) {
            throw failure("ingest files", e);
        }
    }

    @Override
    public long diskUsage() {
        long total = 0;
        try {
            for (ColumnFamilyHandle handle : allHandles) {
                total += Long.parseLong(db.getProperty(handle, "rocksdb.live-sst-files-size"));
            }
            return total;
        } catch (RocksDBException | NumberFormatException e) {
            return -1;
        }
    }

    /** Flushes memtables to disk; used before measuring and in tests. */
    public void flush() {
        try (FlushOptions options = new FlushOptions().setWaitForFlush(true)) {
            db.flush(options, allHandles);
        } catch (RocksDBException e) {
            throw failure("flush", e);
        }
    }

    @Override
    public void close() {
        for (ColumnFamilyHandle handle : allHandles) {
            handle.close();
        }
        db.close();
        syncWrite.close();
        asyncWrite.close();
        dbOptions.close();
        cfOptions.forEach(ColumnFamilyOptions::close);
        blockCache.close();
        LOG.info("engine at {} closed", path);
    }

    private static EngineException failure(String what, RocksDBException e) {
        return new EngineException("engine failed to " + what + ": " + describe(e), e, isNoSpace(e));
    }

    private static String describe(RocksDBException e) {
        Status status = e.getStatus();
        return status == null ? String.valueOf(e.getMessage()) : status.getCodeString() + ": " + e.getMessage();
    }

    private static boolean isNoSpace(RocksDBException e) {
        String message = String.valueOf(e.getMessage());
        return message.contains("No space left") || message.contains("NoSpace")
                || (e.getStatus() != null && e.getStatus().getSubCode() == Status.SubCode.NoSpace);
    }

    private final class RocksSnapshot implements EngineSnapshot {
        private final Snapshot snapshot;
        private final ReadOptions readOptions;

        RocksSnapshot(Snapshot snapshot) {
            this.snapshot = snapshot;
            this.readOptions = new ReadOptions().setSnapshot(snapshot);
        }

        @Override
        public byte[] get(ColumnFamily cf, byte[] key) {
            try {
                return db.get(handle(cf), readOptions, key);
            } catch (RocksDBException e) {
                throw failure("read", e);
            }
        }

        @Override
        public EngineIterator iterator(ColumnFamily cf, byte[] lower, byte[] upper) {
            return new RocksEngineIterator(cf, lower, upper, snapshot, false);
        }

        @Override
        public EngineIterator versionIterator(ColumnFamily cf) {
            return new RocksEngineIterator(cf, null, null, snapshot, true);
        }

        @Override
        public void close() {
            readOptions.close();
            db.releaseSnapshot(snapshot);
        }
    }

    private final class RocksEngineIterator implements EngineIterator {
        private final ReadOptions readOptions;
        private final Slice lowerSlice;
        private final Slice upperSlice;
        private final RocksIterator iterator;

        RocksEngineIterator(ColumnFamily cf, byte[] lower, byte[] upper, Snapshot snapshot, boolean versionsOfOneKey) {
            // Where a prefix extractor is set, RocksDB seeks by prefix unless told to keep the total order.
            readOptions = versionsOfOneKey
                    ? new ReadOptions().setFillCache(true).setTotalOrderSeek(false).setPrefixSameAsStart(true)
                    : new ReadOptions().setFillCache(true).setTotalOrderSeek(true);
            if (snapshot != null) {
                readOptions.setSnapshot(snapshot);
            }
            lowerSlice = lower == null ? null : new Slice(lower);
            upperSlice = upper == null ? null : new Slice(upper);
            if (lowerSlice != null) {
                readOptions.setIterateLowerBound(lowerSlice);
            }
            if (upperSlice != null) {
                readOptions.setIterateUpperBound(upperSlice);
            }
            iterator = db.newIterator(handle(cf), readOptions);
        }

        @Override
        public void seek(byte[] key) {
            iterator.seek(key);
        }

        @Override
        public void seekForPrev(byte[] key) {
            iterator.seekForPrev(key);
        }

        @Override
        public void seekToFirst() {
            iterator.seekToFirst();
        }

        @Override
        public void seekToLast() {
            iterator.seekToLast();
        }

        @Override
        public boolean valid() {
            if (iterator.isValid()) {
                return true;
            }
            try {
                iterator.status();
            } catch (RocksDBException e) {
                throw failure("iterate", e);
            }
            return false;
        }

        @Override
        public byte[] key() {
            return iterator.key();
        }

        @Override
        public byte[] value() {
            return iterator.value();
        }

        @Override
        public void next() {
            iterator.next();
        }

        @Override
        public void prev() {
            iterator.prev();
        }

        @Override
        public void close() {
            iterator.close();
            readOptions.close();
            if (lowerSlice != null) {
                lowerSlice.close();
            }
            if (upperSlice != null) {
                upperSlice.close();
            }
        }
    }

    /** Sorted puts of one column family at least this many are ingested as a file; fewer go into the batch. */
    static final int MIN_INGESTED_PUTS = 4096;

    /** Puts of one column family in ascending key order, kept for a sorted file. */
    private static final class SortedPuts {
        final List<byte[]> keys = new ArrayList<>();
        final List<byte[]> values = new ArrayList<>();
        long bytes;
    }

    private final class RocksWriteBatch implements EngineWriteBatch {
        private final WriteBatch batch = new WriteBatch();
        private final Map<ColumnFamily, SortedPuts> sorted = new EnumMap<>(ColumnFamily.class);

        @Override
        public void putSorted(ColumnFamily cf, byte[] key, byte[] value) {
            SortedPuts puts = sorted.computeIfAbsent(cf, ignored -> new SortedPuts());
            if (!puts.keys.isEmpty() && java.util.Arrays.compareUnsigned(puts.keys.get(puts.keys.size() - 1), key) >= 0) {
                put(cf, key, value);
                return;
            }
            puts.keys.add(key);
            puts.values.add(value);
            puts.bytes += key.length + value.length;
        }

        @Override
        public void put(ColumnFamily cf, byte[] key, byte[] value) {
            try {
                batch.put(handle(cf), key, value);
            } catch (RocksDBException e) {
                throw failure("batch a put", e);
            }
        }

        @Override
        public void delete(ColumnFamily cf, byte[] key) {
            try {
                batch.delete(handle(cf), key);
            } catch (RocksDBException e) {
                throw failure("batch a delete", e);
            }
        }

        @Override
        public void deleteRange(ColumnFamily cf, byte[] start, byte[] end) {
            try {
                batch.deleteRange(handle(cf), start, end);
            } catch (RocksDBException e) {
                throw failure("batch a range delete", e);
            }
        }

        @Override
        public int count() {
            int count = batch.count();
            for (SortedPuts puts : sorted.values()) {
                count += puts.keys.size();
            }
            return count;
        }

        @Override
        public long dataSize() {
            long size = batch.getDataSize();
            for (SortedPuts puts : sorted.values()) {
                size += puts.bytes;
            }
            return size;
        }

        @Override
        public void close() {
            batch.close();
        }
    }

    private static final class RocksSstFileBuilder implements SstFileBuilder {
        private final Path file;
        private final EnvOptions envOptions = new EnvOptions();
        private final Options options = new Options().setCompressionType(CompressionType.LZ4_COMPRESSION);
        private final BloomFilter filter = new BloomFilter(10, false);
        private final SstFileWriter writer;
        private boolean empty = true;
        private boolean finished;

        RocksSstFileBuilder(ColumnFamily cf, Path file) {
            this.file = file;
            // Filters as the column family builds them, so ingested files are filtered like flushed ones.
            if (cf != ColumnFamily.RAFT) {
                options.setTableFormatConfig(new BlockBasedTableConfig().setBlockSize(16 * 1024)
                        .setFilterPolicy(filter).setWholeKeyFiltering(cf != ColumnFamily.WRITE));
            }
            if (cf == ColumnFamily.WRITE) {
                options.useFixedLengthPrefixExtractor(Keys.VERSION_FILTER_PREFIX_BYTES);
            }
            writer = new SstFileWriter(envOptions, options);
            try {
                writer.open(file.toString());
            } catch (RocksDBException e) {
                close();
                throw failure("create " + file, e);
            }
        }

        @Override
        public void add(byte[] key, byte[] value) {
            try {
                writer.put(key, value);
                empty = false;
            } catch (RocksDBException e) {
                throw failure("write " + file, e);
            }
        }

        @Override
        public boolean finish() {
            finished = true;
            if (empty) {
                return false;
            }
            try {
                writer.finish();
                return true;
            } catch (RocksDBException e) {
                throw failure("finish " + file, e);
            }
        }

        @Override
        public Path path() {
            return file;
        }

        @Override
        public void close() {
            writer.close();
            envOptions.close();
            options.close();
            filter.close();
            if (!finished || empty) {
                try {
                    Files.deleteIfExists(file);
                } catch (java.io.IOException e) {
                    // A leftover temporary file; the snapshot directory is cleaned at start.
                }
            }
        }
    }
}
