package io.duetdb.learner.internal.stable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.common.keys.Keys;
import io.duetdb.common.row.RowCodec;
import io.duetdb.common.row.RowColumn;
import io.duetdb.common.row.RowView;
import io.duetdb.common.types.ColumnType;
import io.duetdb.compute.ValueTypes;
import io.duetdb.learner.internal.schema.TableSchema;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

class PackFilesTest {
    private static final FieldType WIDE_DECIMAL = ValueTypes.decimal(30, 4);
    private static final TableSchema SCHEMA = new TableSchema(9, 1, List.of(
            new TableSchema.Column(1, ValueTypes.of(ValueType.INT64), null),
            new TableSchema.Column(2, ValueTypes.of(ValueType.STRING), null),
            new TableSchema.Column(3, WIDE_DECIMAL, null),
            new TableSchema.Column(4, ValueTypes.of(ValueType.FLOAT64), null),
            new TableSchema.Column(5, ValueTypes.of(ValueType.DATE), null)), Set.of(1, 2, 3, 4, 5));
    private static final List<RowColumn> ROW = List.of(RowColumn.of(1, ColumnType.INT64), RowColumn.of(2, ColumnType.STRING),
            RowColumn.of(3, ColumnType.DECIMAL), RowColumn.of(4, ColumnType.FLOAT64), RowColumn.of(5, ColumnType.DATE));

    @TempDir
    Path directory;

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator() {
        allocator.close();
    }

    @Test
    void aPackRoundTripsThroughItsArrowFileAndDamageIsFound() throws IOException {
        PackBuilder builder = new PackBuilder(SCHEMA);
        for (long handle = 1; handle <= 1000; handle++) {
            byte[] key = Keys.recordKey(9, handle);
            if (handle % 10 == 0) {
                builder.add(key, 200, null);
            }
            builder.add(key, 100, new RowView(RowCodec.encode(ROW, Arrays.asList(handle, handle % 3 == 0 ? null : "s" + handle,
                    new BigDecimal("12345678901234567890.1234"), handle / 4.0, LocalDate.of(2026, 1, 1).plusDays(handle)))));
        }
        ColumnPack pack = builder.build(17);
        PackFiles files = new PackFiles(directory, allocator);
        PackFiles.Written written = files.write(pack);
        assertThat(files.existing()).containsExactly(17L);
        assertThat(new PackFiles(directory, allocator).nextId()).as("ids continue above the files").isEqualTo(18);

        ColumnPack read = files.read(17, written.length(), written.checksum());
        assertThat(read.rows()).isEqualTo(pack.rows()).isEqualTo(1100);
        assertThat(read.tableId()).isEqualTo(9);
        assertThat(read.plain()).isFalse();
        for (int row = 0; row < pack.rows(); row++) {
            assertThat(read.key(row)).isEqualTo(pack.key(row));
            assertThat(read.commitTs(row)).isEqualTo(pack.commitTs(row));
            assertThat(read.deleted(row)).isEqualTo(pack.deleted(row));
            for (int column = 1; column <= 5; column++) {
                assertThat(read.column(column).value(row)).isEqualTo(pack.column(column).value(row));
            }
        }
        assertThat(read.column(1).min()).isEqualTo(1L);
        assertThat(read.column(1).max()).isEqualTo(1000L);
        assertThat(read.column(2).nullCount()).isEqualTo(pack.column(2).nullCount()).isGreaterThan(300);
        assertThat(written.length()).as("compressed").isLessThan(1100L * 40);

        Path file = directory.resolve("17.arrow");
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 3] ^= 0x21;
        Files.write(file, bytes);
        assertThatThrownBy(() -> files.read(17, written.length(), written.checksum())).isInstanceOf(IOException.class)
                .hasMessageContaining("damaged");
        assertThat(files.deleteExcept(Set.of())).isEqualTo(1);
        assertThat(files.existing()).isEmpty();
    }
}
