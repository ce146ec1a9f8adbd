package io.duetdb.sql.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.time.Timestamp;

class PastReadTimestampTest {
    private static final long NOW = new Timestamp(Instant.parse("2026-11-27T10:00:00Z").toEpochMilli(), 42).packed();

    @Test
    void newTimestampsWithoutEitherVariable() {
        assertThat(PastReadTimestamp.of("", 0, () -> NOW)).isZero();
    }

    @Test
    void snapshotAsATimestampOrAUtcDateAndTime() {
        assertThat(PastReadTimestamp.of("400036290571534337", 0, () -> NOW)).isEqualTo(400036290571534337L);
        assertThat(Timestamp.fromPacked(PastReadTimestamp.of("2026-11-27 09:59:58.5", -60, () -> NOW)))
                .isEqualTo(new Timestamp(Instant.parse("2026-11-27T09:59:58.500Z").toEpochMilli(), 0));
        assertThatThrownBy(() -> PastReadTimestamp.of("yesterday", 0, () -> NOW)).isInstanceOf(DuetException.class)
                .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.INVALID_READ_TIMESTAMP));
    }

    @Test
    void stalenessIsSecondsBeforePlacementsNewestTimestamp() {
        assertThat(Timestamp.fromPacked(PastReadTimestamp.of("", -5, () -> NOW)))
                .isEqualTo(new Timestamp(Instant.parse("2026-11-27T09:59:55Z").toEpochMilli(), 0));
    }
}
