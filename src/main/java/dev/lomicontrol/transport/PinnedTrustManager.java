package dev.lomicontrol.transport;

import java.net.Socket;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts exactly one certificate: a chain of length 1 whose DER has the pinned SHA-256. No CA, no hostname
 * (a Unix socket has none), no validity window: the pin names the exact certificate, and the TLS
 * CertificateVerify proves the peer holds its key. Used for both directions (client and server checks).
 */
final class PinnedTrustManager extends X509ExtendedTrustManager {

    private final byte[] pinned;

    PinnedTrustManager(String pinnedSha256) {
        this.pinned = HexFormat.of().parseHex(requireSha256(pinnedSha256));
    }

    /** Returns the pin when it is 64 lower-case hex characters; IllegalArgumentException otherwise. */
    static String requireSha256(String sha256) {
        if (sha256 == null || !sha256.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("a pinned SHA-256 must be 64 lower-case hex characters");
        }
        return sha256;
    }

    private void verify(X509Certificate[] chain) throws CertificateException {
        if (chain == null || chain.length != 1) {
            throw new CertificateException("the peer must present exactly one (pinned) certificate");
        }
        byte[] actual = SessionCertificate.sha256Bytes(chain[0]);
        if (!MessageDigest.isEqual(actual, pinned)) {
            throw new CertificateException("the peer certificate is not the pinned one");
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        verify(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        verify(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        verify(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        verify(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        verify(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        verify(chain);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }
}
