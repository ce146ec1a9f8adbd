package io.duetdb.compute.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

/** Batches of strings with NULLs and empty values, written into one reused vector. */
class VariableWidthColumnTest {
    @Test
    void writesEachBatchIntoTheResetVector() {
        Random random = new Random(11);
        try (BufferAllocator allocator = new RootAllocator(); VarCharVector vector = new VarCharVector("v", allocator)) {
            vector.allocateNew();
            VariableWidthColumn column = new VariableWidthColumn();
            for (int batch = 0; batch < 4; batch++) {
                vector.reset();
                column.clear();
                List<String> expected = new ArrayList<>();
                int rows = batch == 3 ? 1 : 500 + random.nextInt(5000);
                for (int row = 0; row < rows; row++) {
                    int kind = random.nextInt(10);
                    String value = kind == 0 ? null : kind == 1 ? "" : "x".repeat(random.nextInt(kind * 40)) + row;
                    expected.add(value);
                    if (value == null) {
                        column.addNull();
                    } else {
                        byte[] bytes = ("ab" + value + "cd").getBytes(StandardCharsets.UTF_8);
                        column.add(bytes, 2, bytes.length - 4);
                    }
                }
                column.writeTo(vector);
                vector.setValueCount(rows);
                List<String> actual = new ArrayList<>();
                for (int row = 0; row < rows; row++) {
                    actual.add(vector.isNull(row) ? null : new String(vector.get(row), StandardCharsets.UTF_8));
                }
                assertThat(actual).containsExactlyElementsOf(expected);
            }
        }
    }
}
