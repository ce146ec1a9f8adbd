package io.duetdb.learner.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.duetdb.common.keys.Keys;
import io.duetdb.common.row.RowCodec;
import io.duetdb.common.row.RowColumn;
import io.duetdb.common.types.ColumnType;
import io.duetdb.compute.Literals;
import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.VectorValues;
import io.duetdb.learner.internal.schema.SchemaSource;
import io.duetdb.learner.internal.schema.TableSchema;
import io.duetdb.learner.internal.schema.TableSchemas;
import io.duetdb.learner.internal.stable.Layers;
import io.duetdb.learner.internal.stable.StableLayer;
import io.duetdb.learner.internal.stable.StableMerger;
import io.duetdb.learner.internal.storage.RegionDelta;
import io.duetdb.proto.coprocessor.Call;
import io.duetdb.proto.coprocessor.DagRequest;
import io.duetdb.proto.coprocessor.Executor;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScalarFunction;
import io.duetdb.proto.coprocessor.ScanColumn;
import io.duetdb.proto.coprocessor.Selection;
import io.duetdb.proto.coprocessor.TableScan;
import io.duetdb.proto.coprocessor.ValueType;

class ColumnarScanOperatorTest {
    private static final long TABLE = 42;
    private static final FieldType INT = ValueTypes.of(ValueType.INT64);
    private static final FieldType TEXT = ValueTypes.of(ValueType.STRING);
    private static final FieldType MONEY = ValueTypes.decimal(10, 2);
    private static final FieldType DAY = ValueTypes.of(ValueType.DATE);
    private static final List<RowColumn> ROW_COLUMNS = List.of(RowColumn.of(1, ColumnType.INT64),
            RowColumn.of(2, ColumnType.STRING), RowColumn.of(3, ColumnType.DECIMAL), RowColumn.of(4, ColumnType.DATE));

    private final BufferAllocator allocator = new RootAllocator();
    private final FakeCatalog catalog = new FakeCatalog();
    private final TableSchemas schemas = new TableSchemas(catalog);
    private final AtomicLong packIds = new AtomicLong();
    private final StableMerger merger = new StableMerger(schemas, packIds::incrementAndGet);

    @AfterEach
    void closeAllocator() {
        allocator.close();
    }

    @Test
    void versionsOfATableTheCatalogDoesNotHoldStayInTheDeltaUntilTheSafePointPassesThem() {
        // Table 99 is not in the catalog: a physical import's new table id before it is published, or a dropped table.
        RegionDelta delta = new RegionDelta();
        byte[] row = RowCodec.encode(ROW_COLUMNS, Arrays.asList(1L, "a", new BigDecimal("1.00"), LocalDate.of(2024, 1, 1)));
        delta.putCommitted(Keys.recordKey(99, 1), 50, row);
        delta.putCommitted(Keys.recordKey(99, 2), 100, row);
        delta.putCommitted(Keys.recordKey(TABLE, 3), 100, row);
        StableMerger.Result result = merger.merge(1, StableLayer.EMPTY, delta.versions(), 80);
        assertThat(result.mergedVersions()).isEqualTo(1);
        assertThat(result.droppedVersions()).isEqualTo(1);
        assertThat(result.retained().keySet()).containsExactly(Keys.versionKey(Keys.recordKey(99, 2), 100));
        RegionDelta active = new RegionDelta();
        active.putStored(result.retained());
        assertThat(active.versionCount()).isEqualTo(1);
        assertThat(merger.merge(1, StableLayer.EMPTY, active.versions(), 101).retained()).isEmpty();
    }

    @Test
    void randomHistoriesReadTheSameWhateverLayersHoldThem() {
        Random random = new Random(20261126);
        for (int round = 0; round < 20; round++) {
            Model model = new Model();
            Replica replica = new Replica();
            long ts = 10;
            long safePoint = 0;
            int operations = 200 + random.nextInt(3000);
            for (int i = 0; i < operations; i++) {
                long handle = 1 + random.nextInt(400);
                ts += 1 + random.nextInt(3);
                Object[] row = random.nextInt(6) == 0 ? null : randomRow(random, handle);
                model.put(handle, ts, row);
                replica.write(handle, ts, row);
                int action = random.nextInt(500);
                if (action == 0) {
                    safePoint = ts - random.nextInt(50);
                    replica.mergeAll(safePoint);
                } else if (action == 1) {
                    replica.freezeOnly();
                } else if (action == 2) {
                    replica.garbageCollect(ts - random.nextInt(50));
                    safePoint = Math.max(safePoint, ts - 50);
                }
            }
            if (random.nextBoolean()) {
                replica.mergeAll(safePoint);
            }
            for (int read = 0; read < 5; read++) {
                long readTs = Math.max(replica.safePoint, safePoint) + random.nextInt((int) (ts - safePoint + 20));
                long low = 1 + random.nextInt(400);
                long high = low + random.nextInt(400);
                assertThat(scan(replica.layers, range(low, high), readTs, PackFilter.NONE))
                        .as("round %d, read at %d over [%d, %d)", round, readTs, low, high)
                        .containsExactlyElementsOf(model.read(readTs, low, high));
            }
            long readTs = ts;
            assertThat(scan(replica.layers, range(0, Long.MAX_VALUE), readTs, PackFilter.NONE))
                    .containsExactlyElementsOf(model.read(readTs, 0, Long.MAX_VALUE));
            StableLayer.Split split = replica.layers.stable().split(Keys.recordKey(TABLE, 200));
            RegionDelta right = replica.layers.active().splitOff(Keys.recordKey(TABLE, 200));
            Layers leftLayers = new Layers(split.left(), replica.layers.frozen(), replica.layers.active());
            Layers rightLayers = new Layers(split.right(), null, right);
            if (replica.layers.frozen() == null) {
                assertThat(scan(leftLayers, range(0, 200), readTs, PackFilter.NONE))
                        .containsExactlyElementsOf(model.read(readTs, 0, 200));
                assertThat(scan(rightLayers, range(200, Long.MAX_VALUE), readTs, PackFilter.NONE))
                        .containsExactlyElementsOf(model.read(readTs, 200, Long.MAX_VALUE));
            }
        }
    }

    @Test
    void packsTheFilterRulesOutAreNotRead() {
        Replica replica = new Replica();
        Model model = new Model();
        Random random = new Random(7);
        for (long handle = 1; handle <= 40_000; handle++) {
            Object[] row = randomRow(random, handle);
            model.put(handle, 100, row);
            replica.write(handle, 100, row);
        }
        replica.mergeAll(0);
        assertThat(replica.layers.stable().slices()).hasSizeGreaterThan(3);
        DagRequest dag = DagRequest.newBuilder().addExecutors(Executor.newBuilder().setTableScan(scan()))
                .addExecutors(Executor.newBuilder().setSelection(Selection.newBuilder().addConditions(
                        Expression.newBuilder().setType(ValueTypes.of(ValueType.BOOLEAN)).setCall(Call.newBuilder()
                                .setFunction(ScalarFunction.GREATER_OR_EQUAL)
                                .addArguments(Expression.newBuilder().setType(INT).setColumn(0))
                                .addArguments(Expression.newBuilder().setType(INT).setLiteral(Literals.of(39_000L)))))))
                .build();
        PackFilter filter = PackFilter.of(dag);
        ColumnarScanOperator operator = new ColumnarScanOperator(replica.layers, List.<byte[][]>of(range(0, Long.MAX_VALUE)), 200,
                scan(), filter, allocator, 1024);
        List<List<Object>> rows = drain(operator);
        assertThat(operator.skippedPacks()).isGreaterThan(0);
        List<List<Object>> wanted = model.read(200, 39_000, Long.MAX_VALUE);
        assertThat(rows).containsAll(wanted);
        assertThat(rows.size()).isLessThan(10_000);
        Object[] updated = randomRow(random, 5);
        model.put(5, 150, updated);
        replica.write(5, 150, updated);
        ColumnarScanOperator touched = new ColumnarScanOperator(replica.layers, List.<byte[][]>of(range(0, Long.MAX_VALUE)), 200,
                scan(), filter, allocator, 1024);
        assertThat(drain(touched)).as("a pack the delta touches is read").contains(model.read(200, 5, 6).get(0));
    }

    @Test
    void anAddedColumnReadsItsDefaultFromOlderPacksAndARowOfANewerSchemaReloadsIt() {
        Replica replica = new Replica();
        replica.write(1, 100, new Object[] {1L, "a", new BigDecimal("1.00"), LocalDate.of(2026, 1, 1)});
        replica.mergeAll(0);
        catalog.addColumnFive();
        long loadsBefore = schemas.loads();
        byte[] newer = RowCodec.encode(List.of(ROW_COLUMNS.get(0), ROW_COLUMNS.get(1), RowColumn.of(5, ColumnType.INT64)),
                List.of(2L, "b", 77L));
        replica.layers.active().putCommitted(Keys.recordKey(TABLE, 2), 110, newer);
        replica.mergeAll(0);
        assertThat(schemas.loads()).as("a row naming an unknown column reloads the schema").isGreaterThan(loadsBefore);
        TableScan withFive = scan().toBuilder().addColumns(ScanColumn.newBuilder().setColumnId(5).setType(INT)
                .setDefaultValue(Literals.of(5L))).build();
        List<List<Object>> rows = drain(new ColumnarScanOperator(replica.layers, List.<byte[][]>of(range(0, 10)), 200, withFive,
                PackFilter.NONE, allocator, 1024));
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).get(4)).as("row 1 predates column 5: its default").isEqualTo(5L);
        assertThat(rows.get(1).get(4)).isEqualTo(77L);
        assertThat(rows.get(1).get(2)).as("row 2 stores no DECIMAL: NULL").isNull();
    }

    private List<List<Object>> scan(Layers layers, byte[][] range, long readTs, PackFilter filter) {
        return drain(new ColumnarScanOperator(layers, List.<byte[][]>of(range), readTs, scan(), filter, allocator, 512));
    }

    private static List<List<Object>> drain(ColumnarScanOperator operator) {
        List<List<Object>> rows = new ArrayList<>();
        try (operator) {
            VectorSchemaRoot batch;
            while ((batch = operator.next()) != null) {
                for (int row = 0; row < batch.getRowCount(); row++) {
                    List<Object> values = new ArrayList<>();
                    for (int column = 0; column < batch.getFieldVectors().size(); column++) {
                        values.add(VectorValues.get(batch.getVector(column), row));
                    }
                    rows.add(values);
                }
            }
        }
        return rows;
    }

    private static TableScan scan() {
        return TableScan.newBuilder().setTableId(TABLE)
                .addColumns(ScanColumn.newBuilder().setColumnId(1).setType(INT))
                .addColumns(ScanColumn.newBuilder().setColumnId(2).setType(TEXT))
                .addColumns(ScanColumn.newBuilder().setColumnId(3).setType(MONEY))
                .addColumns(ScanColumn.newBuilder().setColumnId(4).setType(DAY)).build();
    }

    private static byte[][] range(long low, long high) {
        return new byte[][] {Keys.recordKey(TABLE, low), high == Long.MAX_VALUE ? Keys.recordEnd(TABLE)
                : Keys.recordKey(TABLE, high)};
    }

    private static Object[] randomRow(Random random, long handle) {
        return new Object[] {handle, random.nextInt(5) == 0 ? null : "v" + random.nextInt(1000),
                BigDecimal.valueOf(random.nextInt(100_000), 2), LocalDate.ofEpochDay(19_000 + random.nextInt(1000))};
    }

    /** One replica's layers, changed as the learner changes them. */
    private final class Replica {
        Layers layers = Layers.of(new RegionDelta());
        long safePoint;

        void write(long handle, long ts, Object[] row) {
            layers.active().putCommitted(Keys.recordKey(TABLE, handle), ts,
                    row == null ? null : RowCodec.encode(ROW_COLUMNS, Arrays.asList(row)));
        }

        void freezeOnly() {
            if (layers.frozen() == null) {
                RegionDelta.Frozen frozen = layers.active().freeze();
                layers = new Layers(layers.stable(), frozen.frozen(), frozen.active());
            }
        }

        void mergeAll(long newSafePoint) {
            freezeOnly();
            safePoint = Math.max(safePoint, newSafePoint);
            StableMerger.Result result = merger.merge(1, layers.stable(), layers.frozen().versions(), safePoint);
            layers = new Layers(result.stable(), null, layers.active());
        }

        void garbageCollect(long newSafePoint) {
            safePoint = Math.max(safePoint, newSafePoint);
            layers.active().collectGarbage(safePoint, layers.stable().isEmpty() && layers.frozen() == null);
        }
    }

    /** Every version of every row: what a read at a timestamp must return. */
    private static final class Model {
        private final TreeMap<Long, TreeMap<Long, Object[]>> rows = new TreeMap<>();

        void put(long handle, long ts, Object[] row) {
            rows.computeIfAbsent(handle, h -> new TreeMap<>()).put(ts, row);
        }

        List<List<Object>> read(long readTs, long low, long high) {
            List<List<Object>> result = new ArrayList<>();
            for (Map.Entry<Long, TreeMap<Long, Object[]>> entry : rows.subMap(low, true, high, false).entrySet()) {
                Map.Entry<Long, Object[]> visible = entry.getValue().floorEntry(readTs);
                if (visible != null && visible.getValue() != null) {
                    Object[] row = visible.getValue();
                    result.add(Arrays.asList(row[0], row[1], row[2], ((LocalDate) row[3]).toEpochDay()));
                }
            }
            return result;
        }
    }

    private static final class FakeCatalog implements SchemaSource {
        private long version = 1;
        private final List<TableSchema.Column> columns = new ArrayList<>(List.of(
                new TableSchema.Column(1, INT, null), new TableSchema.Column(2, TEXT, null),
                new TableSchema.Column(3, MONEY, null), new TableSchema.Column(4, DAY, null)));

        void addColumnFive() {
            columns.add(new TableSchema.Column(5, INT, 5L));
            version++;
        }

        @Override
        public long schemaVersion() {
            return version;
        }

        @Override
        public Map<Long, TableSchema> tables() {
            Map<Long, TableSchema> tables = new HashMap<>();
            tables.put(TABLE, new TableSchema(TABLE, version, columns,
                    columns.stream().map(TableSchema.Column::id).collect(java.util.stream.Collectors.toSet())));
            return tables;
        }
    }
}
