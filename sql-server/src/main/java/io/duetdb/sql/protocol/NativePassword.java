package io.duetdb.sql.protocol;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * mysql_native_password: the client sends SHA1(password) XOR SHA1(scramble + SHA1(SHA1(password))); the server
 * keeps only SHA1(SHA1(password)) and checks the reply against it.
 */
public final class NativePassword {
    private NativePassword() {
    }

    /** Twenty printable random bytes (no zero byte, which would end the string early in the handshake). */
    static byte[] newScramble(SecureRandom random) {
        byte[] scramble = new byte[20];
        for (int i = 0; i < scramble.length; i++) {
            scramble[i] = (byte) (33 + random.nextInt(94));
        }
        return scramble;
    }

    /** SHA1(SHA1(password)), what the user table stores; empty for an empty password. */
    public static byte[] storedHash(String password) {
        if (password.isEmpty()) {
            return new byte[0];
        }
        return sha1(sha1(password.getBytes(StandardCharsets.UTF_8)));
    }

    public static boolean verify(byte[] storedHash, byte[] scramble, byte[] reply) {
        if (storedHash.length == 0) {
            return reply.length == 0;
        }
        if (reply.length != 20) {
            return false;
        }
        byte[] mask = sha1(concat(scramble, storedHash));
        byte[] passwordSha1 = new byte[20];
        for (int i = 0; i < 20; i++) {
            passwordSha1[i] = (byte) (reply[i] ^ mask[i]);
        }
        return MessageDigest.isEqual(sha1(passwordSha1), storedHash);
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] result = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, result, first.length, second.length);
        return result;
    }

    private static byte[] sha1(byte[] input) {
        try {
            return MessageDigest.getInstance("SHA-1").digest(input);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-1", e);
        }
    }
}
