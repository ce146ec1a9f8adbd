package io.duetdb.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

class ScanCostModelTest {
    private final ScanCostModel model = new ScanCostModel(2, 100);

    @Test
    void rowScanReadsWholeTuplesAndSeeksOncePerRegion() {
        assertThat(model.rowScan(50, 1_000, 3)).isCloseTo(50 * 1_000 * 2 + 3 * 100, within(1e-9));
    }

    @Test
    void columnScanSumsTheColumnsItReads() {
        assertThat(model.columnScan(List.of(new ScanCostModel.ColumnScan(8, 2), new ScanCostModel.ColumnScan(20, 1)), 1_000))
                .isCloseTo(8 * 1_000 * 2 + 2 * 100 + 20 * 1_000 * 2 + 100, within(1e-9));
    }

    @Test
    void indexScanAddsTheDoubleReadWhichSeeksEveryTuple() {
        double doubleRead = model.doubleRead(50, 10);
        assertThat(doubleRead).isCloseTo(50 * 10 * 2 + 10 * 100, within(1e-9));
        assertThat(model.indexScan(30, 10, 1, doubleRead)).isCloseTo(30 * 10 * 2 + 100 + doubleRead, within(1e-9));
        assertThat(model.indexScan(30, 10, 1, 0)).isCloseTo(30 * 10 * 2 + 100, within(1e-9));
    }

    @Test
    void theCrossoverFollowsTheSeekFactor() {
        // 1% through an index against the whole table: cheaper while a seek costs less than about 100 tuples' bytes.
        double tuple = 50;
        double index = 35;
        assertThat(cheaperThroughIndex(new ScanCostModel(1, 1_000), tuple, index, 100_000, 1_000)).isTrue();
        assertThat(cheaperThroughIndex(new ScanCostModel(1, 10_000), tuple, index, 100_000, 1_000)).isFalse();
    }

    @Test
    void factorsAreNonNegativeNumbers() {
        assertThatThrownBy(() -> new ScanCostModel(-1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScanCostModel(1, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThat(ScanCostModel.DEFAULT).isEqualTo(new ScanCostModel(1, 1_000));
    }

    private static boolean cheaperThroughIndex(ScanCostModel model, double tuple, double index, long rows, long selected) {
        return model.indexScan(index, selected, 1, model.doubleRead(tuple, selected)) < model.rowScan(tuple, rows, 1);
    }
}
