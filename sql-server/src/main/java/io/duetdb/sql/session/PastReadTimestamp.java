package io.duetdb.sql.session;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.function.LongSupplier;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.time.Timestamp;

/**
 * The past timestamp a session's reads see instead of a new one, as TiDB's variables ask: {@code tidb_snapshot}
 * (a timestamp, or a UTC date and time, for history) before {@code tidb_read_staleness} (seconds, negative: now
 * less that much, for stale reads that learners serve below their resolved timestamp without the leader).
 */
final class PastReadTimestamp {
    private PastReadTimestamp() {
    }

    /** The timestamp of a UTC date and time (as NOW() gives them); {@code invalid} says what is wrong otherwise. */
    static long ofDateTime(String dateTime, String invalid) {
        try {
            LocalDateTime time = LocalDateTime.parse(dateTime.trim().replace(' ', 'T'));
            return new Timestamp(time.toInstant(ZoneOffset.UTC).toEpochMilli(), 0).packed();
        } catch (DateTimeParseException | IllegalArgumentException e) {
            throw new DuetException(ErrorCode.INVALID_READ_TIMESTAMP, "invalid as of timestamp: " + invalid);
        }
    }

    /** The timestamp, or 0 when reads take a new one; {@code now} gives placement's newest timestamp. */
    static long of(String snapshot, long stalenessSeconds, LongSupplier now) {
        if (!snapshot.isEmpty()) {
            if (snapshot.chars().allMatch(Character::isDigit)) {
                return Long.parseLong(snapshot);
            }
            return ofDateTime(snapshot, "tidb_snapshot '" + snapshot + "' is neither a timestamp nor a date and time");
        }
        if (stalenessSeconds >= 0) {
            return 0;
        }
        Timestamp current = Timestamp.fromPacked(now.getAsLong());
        return new Timestamp(Math.max(1, current.physical() + stalenessSeconds * 1000), 0).packed();
    }
}
