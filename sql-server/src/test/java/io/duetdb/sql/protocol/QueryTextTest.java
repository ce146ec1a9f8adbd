package io.duetdb.sql.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class QueryTextTest {
    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof String text) {
                out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
            } else {
                for (int b : (int[]) part) {
                    out.write(b);
                }
            }
        }
        return out.toByteArray();
    }

    @Test
    void textWithoutIntroducersIsUtf8() {
        assertThat(QueryText.decode(bytes("SELECT 'Grüße ✓', `a_b` FROM t"))).isEqualTo("SELECT 'Grüße ✓', `a_b` FROM t");
    }

    @Test
    void binaryLiteralsBecomeHexadecimalWithTheirRawBytes() {
        // PyMySQL and Go's driver send byte arrays as _binary'...' with the bytes themselves, escaped.
        byte[] sql = bytes("INSERT INTO t VALUES (1, _binary'", new int[] {0x00, 0x01, 0xFF, 0xC3}, "\\0\\'\\\\x''')",
                ", _BINARY \"a\\\"b\")");
        assertThat(QueryText.decode(sql)).isEqualTo("INSERT INTO t VALUES (1, X'0001ffc300275c7827'), X'612262')");
    }

    @Test
    void plainLiteralsThatAreNotUtf8BecomeHexadecimal() {
        // PyMySQL quotes bytes as '...' unless told to add _binary.
        byte[] sql = bytes("SELECT 'ok ✓', '", new int[] {0x00, 0xFF}, "\\\\''', \"", new int[] {0xC3}, "\"");
        assertThat(QueryText.decode(sql)).isEqualTo("SELECT 'ok ✓', X'00ff5c27', X'c3'");
    }

    @Test
    void utf8IntroducersAreDroppedAndBinaryBeforeHexadecimalToo() {
        assertThat(QueryText.decode(bytes("SELECT _utf8mb4'x', _utf8 'y', _binary X'41', _binary 0x42, _latin1'z'")))
                .isEqualTo("SELECT 'x', 'y', X'41', 0x42, _latin1'z'");
    }

    @Test
    void introducersInsideStringsNamesAndCommentsStay() {
        String sql = "SELECT '_binary''x', `_binary'`, a_binary, x -- _binary'y'\n, /* _binary'z' */ 1 # _binary'w'";
        assertThat(QueryText.decode(bytes(sql))).isEqualTo(sql);
        assertThat(QueryText.decode(bytes("/*!40101 SET @x = _binary'a' */"))).isEqualTo("/*!40101 SET @x = X'61' */");
    }

    @Test
    void stringParametersThatAreNotUtf8StayBytes() {
        assertThat(BinaryValues.stringOrBytes("Grüße".getBytes(StandardCharsets.UTF_8))).isEqualTo("Grüße");
        assertThat(BinaryValues.stringOrBytes(new byte[] {0, 1, (byte) 0xFF})).isEqualTo(new byte[] {0, 1, (byte) 0xFF});
    }
}
