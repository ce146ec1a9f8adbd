package io.duetdb.compute.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.expression.ColumnReference;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/** Selection over batches of every common vector class, keeping some, none or all rows of each. */
class SelectionOperatorTest {
    private static final FieldType BOOLEAN = ValueTypes.of(ValueType.BOOLEAN);
    private static final List<FieldType> TYPES = List.of(BOOLEAN, ValueTypes.of(ValueType.INT64),
            ValueTypes.decimal(15, 2), ValueTypes.decimal(50, 4), ValueTypes.of(ValueType.STRING),
            ValueTypes.of(ValueType.DATE), ValueTypes.of(ValueType.FLOAT64), ValueTypes.of(ValueType.FLOAT32),
            ValueTypes.of(ValueType.DATETIME));

    private final BufferAllocator allocator = new RootAllocator();
    private final Random random = new Random(3);

    @AfterEach
    void close() {
        allocator.close();
    }

    private Object maybeNull(Object value) {
        return random.nextInt(6) == 0 ? null : value;
    }

    private List<Object[]> rows(int count, int keepOneIn) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Boolean keep = random.nextInt(8) == 0 ? null : random.nextInt(keepOneIn) == 0;
            rows.add(new Object[] {keep, maybeNull(random.nextLong()), maybeNull(BigDecimal.valueOf(random.nextInt(), 2)),
                maybeNull(new BigDecimal(random.nextLong() + "123456789012345678").movePointLeft(4)),
                maybeNull("s" + random.nextInt(1000)), maybeNull((long) random.nextInt(20_000)),
                maybeNull(random.nextDouble()), maybeNull(random.nextFloat()), maybeNull(random.nextLong() >> 8)});
        }
        return rows;
    }

    @Test
    void keepsExactlyTheRowsWhoseConditionIsTrue() {
        List<List<Object[]>> batches = List.of(rows(700, 2), rows(1000, 1), rows(300, 50), rows(1500, 3), rows(5, 2));
        List<List<Object>> expected = new ArrayList<>();
        for (List<Object[]> batch : batches) {
            for (Object[] row : batch) {
                if (Boolean.TRUE.equals(row[0])) {
                    expected.add(Arrays.asList(row));
                }
            }
        }
        List<List<Object>> actual = new ArrayList<>();
        try (SelectionOperator selection = new SelectionOperator(new RowListOperator(TYPES, batches.iterator(), allocator),
                List.of(new ColumnReference(0, BOOLEAN)), allocator)) {
            VectorSchemaRoot batch;
            while ((batch = selection.next()) != null) {
                for (int row = 0; row < batch.getRowCount(); row++) {
                    Object[] values = Batches.row(batch, row);
                    actual.add(Arrays.asList(values));
                }
            }
        }
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i).toString()).isEqualTo(expected.get(i).toString());
        }
    }
}
