package io.duetdb.benchmarks.learner;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.CommandLineOptionException;

import io.duetdb.common.keys.Keys;
import io.duetdb.common.row.RowCodec;
import io.duetdb.common.row.RowColumn;
import io.duetdb.common.types.ColumnType;
import io.duetdb.compute.ValueTypes;
import io.duetdb.learner.internal.read.ColumnarScanOperator;
import io.duetdb.learner.internal.read.PackFilter;
import io.duetdb.learner.internal.schema.SchemaSource;
import io.duetdb.learner.internal.schema.TableSchema;
import io.duetdb.learner.internal.schema.TableSchemas;
import io.duetdb.learner.internal.stable.Layers;
import io.duetdb.learner.internal.stable.StableMerger;
import io.duetdb.learner.internal.storage.RegionDelta;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScanColumn;
import io.duetdb.proto.coprocessor.TableScan;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * A column learner's segment scan on one core (issue 20): a region of {@value #ROWS} rows of four columns (BIGINT,
 * VARCHAR, DECIMAL(12,2), DATE) merged into column packs, read whole at a timestamp that sees every version, with
 * none, 1%, 10% or 50% of the rows updated since in the delta. Prints rows per second; values per second are four
 * times that. Run with {@code benchmarks/bench columns} (JMH options pass through, e.g. {@code -p deltaPercent=0}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED"})
public class ColumnScanBenchmark {
    static final int ROWS = 200_000;
    private static final long TABLE = 100;
    private static final FieldType INT = ValueTypes.of(ValueType.INT64);
    private static final FieldType TEXT = ValueTypes.of(ValueType.STRING);
    private static final FieldType MONEY = ValueTypes.decimal(12, 2);
    private static final FieldType DAY = ValueTypes.of(ValueType.DATE);
    private static final List<RowColumn> ROW = List.of(RowColumn.of(1, ColumnType.INT64), RowColumn.of(2, ColumnType.STRING),
            RowColumn.of(3, ColumnType.DECIMAL), RowColumn.of(4, ColumnType.DATE));

    @Param({"0", "1", "10", "50"})
    int deltaPercent;

    private BufferAllocator allocator;
    private Layers layers;
    private TableScan scan;
    private List<byte[][]> ranges;

    @Setup(Level.Trial)
    public void setUp() {
        allocator = new RootAllocator();
        TableSchema schema = new TableSchema(TABLE, 1, List.of(new TableSchema.Column(1, INT, null),
                new TableSchema.Column(2, TEXT, null), new TableSchema.Column(3, MONEY, null),
                new TableSchema.Column(4, DAY, null)), Set.of(1, 2, 3, 4));
        TableSchemas schemas = new TableSchemas(new SchemaSource() {
            @Override
            public long schemaVersion() {
                return 1;
            }

            @Override
            public Map<Long, TableSchema> tables() {
                return Map.of(TABLE, schema);
            }
        });
        AtomicLong ids = new AtomicLong();
        StableMerger merger = new StableMerger(schemas, ids::incrementAndGet);
        Random random = new Random(42);
        RegionDelta delta = new RegionDelta();
        for (long handle = 0; handle < ROWS; handle++) {
            delta.putCommitted(Keys.recordKey(TABLE, handle), 100, row(random, handle));
        }
        RegionDelta.Frozen frozen = delta.freeze();
        StableMerger.Result merged = merger.merge(1, Layers.of(delta).stable(), frozen.frozen().versions(), 0);
        RegionDelta active = frozen.active();
        int updates = (int) ((long) ROWS * deltaPercent / 100);
        for (int i = 0; i < updates; i++) {
            long handle = (long) i * ROWS / Math.max(1, updates);
            active.putCommitted(Keys.recordKey(TABLE, handle), 200, row(random, handle));
        }
        layers = new Layers(merged.stable(), null, active);
        scan = TableScan.newBuilder().setTableId(TABLE)
                .addColumns(ScanColumn.newBuilder().setColumnId(1).setType(INT))
                .addColumns(ScanColumn.newBuilder().setColumnId(2).setType(TEXT))
                .addColumns(ScanColumn.newBuilder().setColumnId(3).setType(MONEY))
                .addColumns(ScanColumn.newBuilder().setColumnId(4).setType(DAY)).build();
        ranges = List.<byte[][]>of(new byte[][] {Keys.recordPrefix(TABLE), Keys.recordEnd(TABLE)});
    }

    private static byte[] row(Random random, long handle) {
        return RowCodec.encode(ROW, Arrays.asList(handle, "customer#" + random.nextInt(100_000),
                BigDecimal.valueOf(random.nextInt(10_000_000), 2), LocalDate.ofEpochDay(8_000 + random.nextInt(2_500))));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        allocator.close();
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long scanRegion() {
        long rows = 0;
        try (ColumnarScanOperator operator = new ColumnarScanOperator(layers, ranges, 300, scan, PackFilter.NONE,
                allocator, 8192)) {
            VectorSchemaRoot batch;
            while ((batch = operator.next()) != null) {
                rows += batch.getRowCount();
            }
        }
        if (rows != ROWS) {
            throw new IllegalStateException("scanned " + rows + " rows, expected " + ROWS);
        }
        return rows;
    }

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        String[] withInclude = Arrays.copyOf(args, args.length + 1);
        withInclude[args.length] = ColumnScanBenchmark.class.getName();
        new Runner(new CommandLineOptions(withInclude)).run();
    }
}
