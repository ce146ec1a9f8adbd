package io.duetdb.common.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TimestampTest {
    @Test
    void packsPhysicalAboveLogical() {
        Timestamp ts = new Timestamp(1_700_000_000_000L, 5);
        assertThat(ts.packed()).isEqualTo((1_700_000_000_000L << 18) | 5);
        assertThat(Timestamp.fromPacked(ts.packed())).isEqualTo(ts);
        assertThat(new Timestamp(1, Timestamp.MAX_LOGICAL)).isLessThan(new Timestamp(2, 0));
    }

    @Test
    void rejectsOutOfRangeParts() {
        assertThatThrownBy(() -> new Timestamp(0, Timestamp.MAX_LOGICAL + 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Timestamp(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Timestamp.fromPacked(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
