package io.duetdb.store.internal.region;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;

class WrittenKeysTest {
    private static ByteString key(String text) {
        return ByteString.copyFromUtf8(text);
    }

    @Test
    void aRoundTakesTheKeysWithTheirNewestTimestampAndKeepsThoseStillAheadOfItsPoint() {
        WrittenKeys written = new WrittenKeys();
        written.record(List.of(key("a"), key("b")), 10);
        written.record(List.of(key("a")), 30);
        WrittenKeys.Taken taken = written.take();
        assertThat(taken.complete()).isTrue();
        assertThat(taken.keys()).isEqualTo(Map.of(key("a"), 30L, key("b"), 10L));
        assertThat(written.take().keys()).as("taken keys are gone").isEmpty();

        written.record(List.of(key("c")), 40);
        written.keepFrom(taken.keys(), 20);
        assertThat(written.take().keys()).as("b's record is below the point: collected for good")
                .isEqualTo(Map.of(key("a"), 30L, key("c"), 40L));
    }

    @Test
    void tooManyKeysOnlyTellTheNextRoundToScan() {
        WrittenKeys written = new WrittenKeys();
        List<ByteString> many = new ArrayList<>();
        for (int i = 0; i <= WrittenKeys.MAX_KEYS; i++) {
            many.add(key("k" + i));
        }
        written.record(many, 5);
        written.record(List.of(key("later")), 6);
        assertThat(written.take().complete()).isFalse();
        written.record(List.of(key("after")), 7);
        assertThat(written.take().keys()).as("a new round starts counting again").isEqualTo(Map.of(key("after"), 7L));
    }
}
