package io.duetdb.client.txn;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * The outcome of {@link TxnClient#readLatestWithoutBlocking}: the key's newest committed value (empty when it has
 * none), or no answer, when the read must be made again the blocking way (a lock on the key, a region error, a
 * failed call).
 */
public record LatestRead(boolean answered, Optional<byte[]> value) {
    public static final LatestRead UNANSWERED = new LatestRead(false, Optional.empty());

    public LatestRead {
        requireNonNull(value, "value is null");
    }

    static LatestRead of(Optional<byte[]> value) {
        return new LatestRead(true, value);
    }
}
