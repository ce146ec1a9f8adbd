package io.duetdb.sql.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.time.Timestamp;

class BoundedStalenessTest {
    @Test
    void takesTheResolvedTimestampBetweenTheBoundsElseTheBoundItPassed() {
        assertThat(BoundedStaleness.between(100, 200, 150)).isEqualTo(150);
        assertThat(BoundedStaleness.between(100, 200, 50)).isEqualTo(100);
        assertThat(BoundedStaleness.between(100, 200, 0)).isEqualTo(100);
        assertThat(BoundedStaleness.between(100, 200, 250)).isEqualTo(200);
        assertThat(BoundedStaleness.between(100, 100, 250)).isEqualTo(100);
        assertThatThrownBy(() -> BoundedStaleness.between(200, 100, 150)).isInstanceOf(DuetException.class)
                .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.INVALID_READ_TIMESTAMP));
    }

    @Test
    void takesTheResolvedTimestampOnlyWhenItIsFreshEnough() {
        long resolved = new Timestamp(10_000, 7).packed();
        assertThat(BoundedStaleness.within(resolved, 10_050, 50)).isEqualTo(resolved);
        assertThat(BoundedStaleness.within(resolved, 10_051, 50)).isZero();
        assertThat(BoundedStaleness.within(resolved, 10_000, 0)).as("off").isZero();
        assertThat(BoundedStaleness.within(0, 10_000, 50)).as("nothing resolved yet").isZero();
    }
}
