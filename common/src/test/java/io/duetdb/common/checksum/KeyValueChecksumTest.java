package io.duetdb.common.checksum;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.duetdb.common.keys.Handle;
import io.duetdb.common.keys.Keys;

class KeyValueChecksumTest {
    @Test
    void crc64MatchesTheStandardCheckValue() {
        // CRC-64/XZ of "123456789".
        assertThat(new Crc64().update("123456789".getBytes(StandardCharsets.US_ASCII)).value())
                .isEqualTo(0x995DC9BBDF1939FAL);
    }

    @Test
    void theChecksumIgnoresOrderAndTheTableId() {
        KeyValueChecksum forward = new KeyValueChecksum();
        KeyValueChecksum backward = new KeyValueChecksum();
        KeyValueChecksum otherTable = new KeyValueChecksum();
        for (int i = 0; i < 100; i++) {
            forward.add(Keys.recordKey(5, Handle.of(i)), ("v" + i).getBytes(StandardCharsets.UTF_8));
            backward.add(Keys.recordKey(5, Handle.of(99 - i)), ("v" + (99 - i)).getBytes(StandardCharsets.UTF_8));
            otherTable.add(Keys.recordKey(77, Handle.of(i)), ("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        assertThat(forward.result()).isEqualTo(backward.result()).isEqualTo(otherTable.result());
        assertThat(forward.totalKvs()).isEqualTo(100);

        KeyValueChecksum changed = new KeyValueChecksum();
        for (int i = 0; i < 100; i++) {
            changed.add(Keys.recordKey(5, Handle.of(i)), ("v" + (i == 42 ? 43 : i)).getBytes(StandardCharsets.UTF_8));
        }
        assertThat(changed.crc64Xor()).isNotEqualTo(forward.crc64Xor());
    }

    @Test
    void partsMergeToTheWhole() {
        KeyValueChecksum whole = new KeyValueChecksum();
        KeyValueChecksum left = new KeyValueChecksum();
        KeyValueChecksum right = new KeyValueChecksum();
        for (int i = 0; i < 10; i++) {
            byte[] key = Keys.recordKey(9, Handle.of(i));
            byte[] value = {(byte) i};
            whole.add(key, value);
            (i < 4 ? left : right).add(key, value);
        }
        KeyValueChecksum merged = new KeyValueChecksum();
        merged.add(right.result());
        merged.add(left.result());
        assertThat(merged.result()).isEqualTo(whole.result());
    }
}
