package io.duetdb.bulk.importer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExternalSorterTest {
    @TempDir
    Path work;

    @Test
    void pairsComeOutInKeyOrderFromSpilledRunsAndMemory() throws Exception {
        Random random = new Random(7);
        List<byte[]> keys = new ArrayList<>();
        try (ExternalSorter sorter = new ExternalSorter(work, 2 << 20, 2)) {
            ExternalSorter.Buffer first = sorter.newBuffer();
            ExternalSorter.Buffer second = sorter.newBuffer();
            for (int i = 0; i < 40_000; i++) {
                byte[] key = new byte[1 + random.nextInt(20)];
                random.nextBytes(key);
                keys.add(key);
                (i % 2 == 0 ? first : second).add(key, new byte[64]);
            }
            first.finish();
            second.finish();
            assertThat(sorter.spilledRuns()).isGreaterThan(1);
            try (ExternalSorter.Merged merged = sorter.merge()) {
                List<byte[]> out = new ArrayList<>();
                for (KeyValuePair pair = merged.next(); pair != null; pair = merged.next()) {
                    out.add(pair.key());
                }
                keys.sort(Arrays::compareUnsigned);
                assertThat(out).hasSize(keys.size());
                for (int i = 0; i < keys.size(); i++) {
                    assertThat(out.get(i)).isEqualTo(keys.get(i));
                }
            }
        }
        try (var left = Files.list(work)) {
            assertThat(left).isEmpty();
        }
    }
}
