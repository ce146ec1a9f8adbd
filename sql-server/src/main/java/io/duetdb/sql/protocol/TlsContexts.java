package io.duetdb.sql.protocol;

import java.nio.file.Path;
import java.security.cert.CertificateException;

import javax.net.ssl.SSLException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.SelfSignedCertificate;

/** The server's TLS context: from a configured PEM certificate and key, or a generated self-signed one. */
public final class TlsContexts {
    private static final Logger LOG = LoggerFactory.getLogger(TlsContexts.class);

    private TlsContexts() {
    }

    public static SslContext forServer(Path certificate, Path privateKey) {
        try {
            if (certificate != null && privateKey != null) {
                LOG.info("TLS with the configured certificate {}", certificate);
                return SslContextBuilder.forServer(certificate.toFile(), privateKey.toFile()).build();
            }
            SelfSignedCertificate generated = new SelfSignedCertificate("duetdb");
            LOG.info("TLS with a generated self-signed certificate (no certificate configured)");
            return SslContextBuilder.forServer(generated.certificate(), generated.privateKey()).build();
        } catch (SSLException | CertificateException | IllegalArgumentException e) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "cannot set up TLS: " + e.getMessage(), e);
        }
    }
}
