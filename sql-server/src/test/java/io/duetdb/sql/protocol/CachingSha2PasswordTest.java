package io.duetdb.sql.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;

import javax.crypto.Cipher;

import org.junit.jupiter.api.Test;

class CachingSha2PasswordTest {
    private final SecureRandom random = new SecureRandom();

    @Test
    void storedHashesAreSaltedAndVerifyOnlyTheirPassword() {
        String first = CachingSha2Password.storedHash("s3cret-\u00fc", random);
        String second = CachingSha2Password.storedHash("s3cret-\u00fc", random);
        assertThat(first).startsWith("$pbkdf2-sha256$").isNotEqualTo(second).doesNotContain("s3cret");
        assertThat(CachingSha2Password.verifyPassword(first, "s3cret-\u00fc".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(CachingSha2Password.verifyPassword(second, "s3cret-\u00fc".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(CachingSha2Password.verifyPassword(first, "s3cret-u".getBytes(StandardCharsets.UTF_8))).isFalse();
        assertThat(CachingSha2Password.verifyPassword(first, new byte[0])).isFalse();
        assertThat(CachingSha2Password.storedHash("", random)).isEmpty();
        assertThat(CachingSha2Password.verifyPassword("", new byte[0])).isTrue();
        assertThat(CachingSha2Password.verifyPassword("$pbkdf2-sha256$x$y", new byte[] {1})).isFalse();
    }

    @Test
    void scrambleRepliesAreCheckedAgainstTheCachedDoubleHash() throws Exception {
        byte[] password = "hunter2".getBytes(StandardCharsets.UTF_8);
        byte[] scramble = NativePassword.newScramble(random);
        byte[] cached = CachingSha2Password.doubleSha256(password);
        assertThat(CachingSha2Password.verifyScrambleReply(cached, scramble, clientReply(password, scramble))).isTrue();
        assertThat(CachingSha2Password.verifyScrambleReply(cached, scramble,
                clientReply("hunter3".getBytes(StandardCharsets.UTF_8), scramble))).isFalse();
        assertThat(CachingSha2Password.verifyScrambleReply(cached, NativePassword.newScramble(random),
                clientReply(password, scramble))).isFalse();
        assertThat(CachingSha2Password.verifyScrambleReply(cached, scramble, new byte[20])).isFalse();
    }

    @Test
    void passwordsEncryptedWithThePublicKeyAreRecovered() throws Exception {
        ServerAuthentication authentication = new ServerAuthentication(random);
        String pem = authentication.publicKeyPem();
        assertThat(pem).startsWith("-----BEGIN PUBLIC KEY-----\n").endsWith("-----END PUBLIC KEY-----\n");
        String body = pem.replace("-----BEGIN PUBLIC KEY-----", "").replace("-----END PUBLIC KEY-----", "");
        PublicKey key = KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(
                Base64.getMimeDecoder().decode(body)));
        byte[] scramble = NativePassword.newScramble(random);
        // What a client sends: the password with its terminating zero, XORed with the scramble, encrypted.
        byte[] password = "a password longer than the twenty bytes of a scramble".getBytes(StandardCharsets.UTF_8);
        byte[] masked = Arrays.copyOf(password, password.length + 1);
        for (int i = 0; i < masked.length; i++) {
            masked[i] ^= scramble[i % scramble.length];
        }
        Cipher cipher = Cipher.getInstance("RSA/ECB/OAEPWithSHA-1AndMGF1Padding");
        cipher.init(Cipher.ENCRYPT_MODE, key);
        assertThat(authentication.decryptPassword(cipher.doFinal(masked), scramble)).hasValue(password);
        assertThat(authentication.decryptPassword(new byte[256], scramble)).isEmpty();
    }

    /** The client's side of fast authentication: XOR(SHA256(pw), SHA256(SHA256(SHA256(pw)), scramble)). */
    private static byte[] clientReply(byte[] password, byte[] scramble) throws Exception {
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        byte[] first = sha256.digest(password);
        byte[] second = sha256.digest(first);
        sha256.update(second);
        sha256.update(scramble);
        byte[] mask = sha256.digest();
        byte[] reply = new byte[first.length];
        for (int i = 0; i < reply.length; i++) {
            reply[i] = (byte) (first[i] ^ mask[i]);
        }
        return reply;
    }
}
