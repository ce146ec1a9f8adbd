package io.duetdb.client.txn;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * The outcome of a read of one key that does not block ({@link TxnClient#readLatestWithoutBlocking},
 * {@link Transaction#getWithoutBlocking}): the key's value (empty when it has none), or no answer, when the read
 * must be made again the blocking way (a lock on the key, a region error, a failed call).
 */
public record PointRead(boolean answered, Optional<byte[]> value) {
    public static final PointRead UNANSWERED = new PointRead(false, Optional.empty());

    public PointRead {
        requireNonNull(value, "value is null");
    }

    static PointRead of(Optional<byte[]> value) {
        return new PointRead(true, value);
    }
}
