package io.duetdb.compute.scan;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ScanBatchesTest {
    @Test
    void batchesStartSmallAndDoubleUpToTheRequestedSize() {
        int rows = ScanBatches.first(1024);
        StringBuilder sizes = new StringBuilder().append(rows);
        for (int i = 0; i < 6; i++) {
            rows = ScanBatches.next(rows, 1024);
            sizes.append(',').append(rows);
        }
        assertThat(sizes.toString()).isEqualTo("32,64,128,256,512,1024,1024");
        assertThat(ScanBatches.first(10)).isEqualTo(10);
        assertThat(ScanBatches.next(10, 10)).isEqualTo(10);
        assertThat(ScanBatches.next(Integer.MAX_VALUE / 2 + 1, Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
    }
}
