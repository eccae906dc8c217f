package dev.lomicontrol.transport;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.TrustManager;

/**
 * TLS 1.3-only contexts (JDK provider) pinned to exactly one peer certificate, mutual on both sides.
 *
 * <p>Each side presents its own key and certificate from memory ({@link OwnKeyManager}, no keystore).
 * Guarantees: only TLSv1.3 is enabled; the server requires a client certificate; each side accepts only
 * a single certificate whose DER SHA-256 equals its pin (no CA, no hostname, no validity check). No
 * resumption across connections: every {@code server(...)}/{@code client(...)} call builds a fresh JDK
 * {@code SSLContext} with its own session cache (size 1, timeout 1 s), and client engines are created
 * without a peer host, so the JDK client never looks up a session to resume and never offers a PSK — every
 * handshake is a full one with fresh ephemeral keys. The JDK has no 0-RTT early data. The server sends
 * no NewSessionTicket (SPEC §3.6): loading this class turns off the JDK server's
 * {@code psk_key_exchange_modes} and {@code pre_shared_key} extensions for the process
 * ({@code jdk.tls.server.disableExtensions}), and without them a TLS 1.3 server issues no ticket and
 * resumes nothing. Use one context per connection.
 */
public final class PinnedTls {

    private static final String TLS_13 = "TLSv1.3";

    /**
     * The TLS 1.3 cipher suites both sides offer, most preferred first. ChaCha20-Poly1305 leads: the JDK
     * runs it as plain Java at 11–15 ms per MiB under the helper's C1-only compiler, where AES-GCM (whose
     * intrinsics are C2's) takes 33–44 ms per MiB (docs/BENCHMARKS.md, "Where a forwarded call's time
     * goes"). The AES-GCM suites stay as fallbacks for a JDK without ChaCha20 (e.g. one in FIPS mode).
     */
    static final List<String> CIPHER_SUITES =
            List.of("TLS_CHACHA20_POLY1305_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256");

    /** The server's first frame inside TLS: proof for the client that the server accepted its certificate. */
    static final byte[] CONFIRMATION = "lomi-tls-accepted/1".getBytes(StandardCharsets.US_ASCII);

    private static final String SERVER_EXTENSIONS_OFF = "jdk.tls.server.disableExtensions";

    static {
        // read once by the JDK when its first server handshake starts; this class builds every server context
        String off = System.getProperty(SERVER_EXTENSIONS_OFF, "");
        StringBuilder value = new StringBuilder(off);
        for (String extension : new String[] {"psk_key_exchange_modes", "pre_shared_key"}) {
            if (!off.contains(extension)) {
                value.append(value.length() == 0 ? "" : ",").append(extension);
            }
        }
        System.setProperty(SERVER_EXTENSIONS_OFF, value.toString());
    }

    private PinnedTls() {}

    /**
     * One side's TLS setup for one connection: a JDK {@code SSLContext} plus which side it plays. Nothing here
     * is Netty's: the broker's Netty channels wrap {@link #newEngine()} in an {@code SslHandler}
     * ({@link TlsSwitch}), the helper's socket channel drives the engine itself ({@link SocketFrameChannel}).
     */
    public static final class Context {
        private final SSLContext sslContext;
        private final boolean server;
        private final String pinnedPeerSha256;

        private Context(SSLContext sslContext, boolean server, String pinnedPeerSha256) {
            this.sslContext = sslContext;
            this.server = server;
            this.pinnedPeerSha256 = pinnedPeerSha256;
        }

        public boolean isServer() {
            return server;
        }

        /** The SHA-256 (lower-case hex) the peer's certificate must have. */
        public String pinnedPeerSha256() {
            return pinnedPeerSha256;
        }

        /**
         * An engine for one connection: TLS 1.3 only, our suites in our order (those this JDK supports), the
         * server requiring a client certificate, and no peer host, so nothing can be resumed and no host is
         * checked (the trust manager checks the pin instead).
         */
        SSLEngine newEngine() {
            SSLEngine engine = sslContext.createSSLEngine();
            engine.setUseClientMode(!server);
            engine.setEnabledProtocols(new String[] {TLS_13});
            List<String> supported = Arrays.asList(engine.getSupportedCipherSuites());
            engine.setEnabledCipherSuites(
                    CIPHER_SUITES.stream().filter(supported::contains).toArray(String[]::new));
            if (server) {
                engine.setNeedClientAuth(true);
            }
            return engine;
        }

        @Override
        public String toString() {
            return (server ? "server" : "client") + " TLS 1.3 context pinned to " + pinnedPeerSha256;
        }
    }

    /** The broker side: presents {@code own}, requires a client certificate whose SHA-256 is the pin. */
    public static Context server(SessionCertificate own, String pinnedPeerSha256) {
        return build(own, true, pinnedPeerSha256);
    }

    /** The helper side: presents {@code own}, accepts only the server certificate whose SHA-256 is the pin. */
    public static Context client(SessionCertificate own, String pinnedPeerSha256) {
        return build(own, false, pinnedPeerSha256);
    }

    /**
     * A fresh JDK {@code SSLContext} per connection with our key and trust managers and a session cache of one
     * entry for one second on both sides. It is not built through Netty's {@code SslContextBuilder}: its server
     * context ({@code JdkSslServerContext}) runs a one-off probe in its static initialiser that parses a sample
     * PEM key, and with BouncyCastle's PKIX jar on the class path Netty parses it with the BouncyCastle
     * provider — ~480 classes loaded into the broker for nothing (docs/BENCHMARKS.md, "Fewer classes at
     * start-up"); and the helper uses no Netty at all.
     */
    private static Context build(SessionCertificate own, boolean server, String pinnedPeerSha256) {
        PinnedTrustManager trust = new PinnedTrustManager(pinnedPeerSha256);
        try {
            SSLContext jdk = SSLContext.getInstance(TLS_13);
            jdk.init(new KeyManager[] {new OwnKeyManager(own)}, new TrustManager[] {trust}, null);
            for (SSLSessionContext sessions :
                    new SSLSessionContext[] {jdk.getServerSessionContext(), jdk.getClientSessionContext()}) {
                sessions.setSessionCacheSize(1);
                sessions.setSessionTimeout(1);
            }
            return new Context(jdk, server, pinnedPeerSha256);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build a TLS 1.3 context", e);
        }
    }
}
