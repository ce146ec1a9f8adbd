package io.duetdb.sql.protocol;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import javax.crypto.Cipher;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.sql.catalog.UserInfo;

/**
 * What the connections of one server share to authenticate caching_sha2_password accounts: the cache of
 * SHA256(SHA256(password)) that fast authentication checks, and the RSA key pair that protects a password sent
 * without TLS. Cache entries are keyed by the account and its stored hash, so a password changed on any server
 * makes the old entry unreachable; the key pair is generated when the server starts and lives as long as it.
 */
final class ServerAuthentication {
    private static final Logger LOG = LoggerFactory.getLogger(ServerAuthentication.class);
    private static final int MAX_CACHED_ACCOUNTS = 100_000;
    private static final String RSA_PADDING = "RSA/ECB/OAEPWithSHA-1AndMGF1Padding";

    private final Map<String, byte[]> fastAuthenticationCache = new ConcurrentHashMap<>();
    private final KeyPair rsaKeys;
    private final String publicKeyPem;

    ServerAuthentication(SecureRandom random) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048, random);
            rsaKeys = generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK cannot generate RSA keys", e);
        }
        publicKeyPem = "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(rsaKeys.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
        LOG.info("RSA key pair generated for caching_sha2_password logins without TLS");
    }

    Optional<byte[]> cachedDoubleSha256(UserInfo account) {
        return Optional.ofNullable(fastAuthenticationCache.get(cacheKey(account)));
    }

    /** After a successful full authentication: the account may use fast authentication from now on. */
    void remember(UserInfo account, byte[] password) {
        if (fastAuthenticationCache.size() >= MAX_CACHED_ACCOUNTS) {
            fastAuthenticationCache.clear();
        }
        fastAuthenticationCache.put(cacheKey(account), CachingSha2Password.doubleSha256(password));
    }

    private static String cacheKey(UserInfo account) {
        return account.user() + "\u0000" + account.host() + "\u0000" + account.passwordHash();
    }

    /** The public key as PEM, what a client asks for (0x02) before it sends an encrypted password. */
    String publicKeyPem() {
        return publicKeyPem;
    }

    /**
     * The password a client sent RSA-encrypted: it encrypts the password with its terminating zero, XORed with
     * the scramble (repeated). Empty when the bytes cannot be decrypted.
     */
    Optional<byte[]> decryptPassword(byte[] encrypted, byte[] scramble) {
        byte[] masked;
        try {
            Cipher cipher = Cipher.getInstance(RSA_PADDING);
            cipher.init(Cipher.DECRYPT_MODE, rsaKeys.getPrivate());
            masked = cipher.doFinal(encrypted);
        } catch (GeneralSecurityException e) {
            return Optional.empty();
        }
        for (int i = 0; i < masked.length; i++) {
            masked[i] ^= scramble[i % scramble.length];
        }
        int length = masked.length;
        if (length > 0 && masked[length - 1] == 0) {
            length--;
        }
        return Optional.of(java.util.Arrays.copyOf(masked, length));
    }
}
