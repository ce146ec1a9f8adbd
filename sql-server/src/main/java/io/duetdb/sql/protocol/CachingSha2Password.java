package io.duetdb.sql.protocol;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * caching_sha2_password. The catalog keeps a salted, iterated hash of the password (PBKDF2 with HMAC-SHA-256;
 * MySQL keeps a SHA-256 crypt string instead, which no client ever sees), checked when a client sends the
 * password itself ("full authentication", over TLS or RSA-encrypted). A successful full authentication leaves
 * SHA256(SHA256(password)) in the server's memory, after which clients log in with a scramble reply
 * ("fast authentication"): XOR(SHA256(password), SHA256(SHA256(SHA256(password)), scramble)).
 */
public final class CachingSha2Password {
    /** Tags the stored format, so that another scheme can be told apart later. */
    private static final String SCHEME = "$pbkdf2-sha256$";
    private static final int ITERATIONS = 10_000;
    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;
    static final int SCRAMBLE_REPLY_BYTES = 32;

    private CachingSha2Password() {
    }

    /** What the catalog stores for a password: empty for no password, else {@code $pbkdf2-sha256$rounds$salt$hash}. */
    public static String storedHash(String password, SecureRandom random) {
        if (password.isEmpty()) {
            return "";
        }
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        Base64.Encoder base64 = Base64.getEncoder().withoutPadding();
        return SCHEME + ITERATIONS + "$" + base64.encodeToString(salt) + "$"
                + base64.encodeToString(derive(password.getBytes(StandardCharsets.UTF_8), salt, ITERATIONS));
    }

    /** Whether {@code password} (the client's cleartext, without its terminating zero) matches the stored hash. */
    static boolean verifyPassword(String storedHash, byte[] password) {
        if (storedHash.isEmpty()) {
            return password.length == 0;
        }
        if (!storedHash.startsWith(SCHEME)) {
            return false;
        }
        String[] parts = storedHash.substring(SCHEME.length()).split("\\$");
        if (parts.length != 3) {
            return false;
        }
        try {
            Base64.Decoder base64 = Base64.getDecoder();
            byte[] expected = base64.decode(parts[2]);
            byte[] actual = derive(password, base64.decode(parts[1]), Integer.parseInt(parts[0]));
            return MessageDigest.isEqual(expected, actual);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** SHA256(SHA256(password)): what the fast-authentication cache keeps after a full authentication. */
    static byte[] doubleSha256(byte[] password) {
        return sha256(sha256(password));
    }

    /** Checks a scramble reply against the cached SHA256(SHA256(password)). */
    static boolean verifyScrambleReply(byte[] cachedDoubleSha256, byte[] scramble, byte[] reply) {
        if (reply.length != SCRAMBLE_REPLY_BYTES) {
            return false;
        }
        MessageDigest digest = sha256Digest();
        digest.update(cachedDoubleSha256);
        digest.update(scramble);
        byte[] mask = digest.digest();
        byte[] passwordSha256 = new byte[SCRAMBLE_REPLY_BYTES];
        for (int i = 0; i < passwordSha256.length; i++) {
            passwordSha256[i] = (byte) (reply[i] ^ mask[i]);
        }
        return MessageDigest.isEqual(sha256(passwordSha256), cachedDoubleSha256);
    }

    private static byte[] derive(byte[] password, byte[] salt, int iterations) {
        // PBEKeySpec takes characters: one per byte the client sent, so the hash depends on exactly those bytes.
        char[] characters = new char[password.length];
        for (int i = 0; i < password.length; i++) {
            characters[i] = (char) (password[i] & 0xFF);
        }
        PBEKeySpec spec = new PBEKeySpec(characters, salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no PBKDF2WithHmacSHA256", e);
        } finally {
            spec.clearPassword();
        }
    }

    private static byte[] sha256(byte[] input) {
        return sha256Digest().digest(input);
    }

    private static MessageDigest sha256Digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
