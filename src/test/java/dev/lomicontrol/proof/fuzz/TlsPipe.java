package dev.lomicontrol.proof.fuzz;

import dev.lomicontrol.transport.SessionCertificate;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The client half of the broker's mutual TLS 1.3, built on a JDK {@link SSLEngine} over a {@link
 * RawSocket}, so that after the handshake any plaintext bytes at all can be sent inside TLS (bad
 * length prefixes, truncated frames) — the main code's frame channel only ever sends good frames.
 * It presents the helper's session certificate and accepts only the pinned broker certificate,
 * exactly like the helper.
 */
final class TlsPipe {

    private static final char[] STORE_PASSWORD = "fuzz".toCharArray();
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final RawSocket raw;
    private final SSLEngine engine;
    private ByteBuffer netIn;
    private ByteBuffer appIn;
    private final ByteBuffer netOut;

    private TlsPipe(RawSocket raw, SSLEngine engine) {
        this.raw = raw;
        this.engine = engine;
        this.netIn = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        this.netOut = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
    }

    /** A client engine that presents {@code own} and trusts only a server certificate whose SHA-256 is {@code pinnedSha256}. */
    static SSLEngine clientEngine(SessionCertificate own, String pinnedSha256)
            throws GeneralSecurityException, IOException {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("session", own.privateKey(), STORE_PASSWORD, new Certificate[] {own.certificate()});
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, STORE_PASSWORD);
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(keyManagers.getKeyManagers(), new TrustManager[] {new Pinned(pinnedSha256)}, null);
        SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(true);
        engine.setEnabledProtocols(new String[] {"TLSv1.3"});
        return engine;
    }

    /** Runs the handshake on {@code raw} within {@code timeout}; the caller then reads the broker's confirmation frame. */
    static TlsPipe handshake(RawSocket raw, SSLEngine engine, Duration timeout) throws IOException {
        TlsPipe pipe = new TlsPipe(raw, engine);
        long deadline = System.nanoTime() + timeout.toNanos();
        engine.beginHandshake();
        while (true) {
            HandshakeStatus status = engine.getHandshakeStatus();
            if (status == HandshakeStatus.NEED_WRAP) {
                pipe.wrap(EMPTY, timeout);
            } else if (status == HandshakeStatus.NEED_UNWRAP || status == HandshakeStatus.NEED_UNWRAP_AGAIN) {
                if (!pipe.unwrap(deadline)) {
                    throw new EOFException("the broker closed the connection during the TLS handshake");
                }
            } else if (status == HandshakeStatus.NEED_TASK) {
                for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask()) {
                    task.run();
                }
            } else {
                return pipe;
            }
        }
    }

    /** The first TLS record a client would send (a ClientHello), for sending where it does not belong. */
    static byte[] clientHello(SSLEngine engine) throws IOException {
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.beginHandshake();
        engine.wrap(EMPTY, out);
        byte[] hello = new byte[out.flip().remaining()];
        out.get(hello);
        return hello;
    }

    /** Sends {@code plaintext} inside TLS, record by record. */
    void write(byte[] plaintext, Duration timeout) throws IOException {
        ByteBuffer source = ByteBuffer.wrap(plaintext);
        while (source.hasRemaining()) {
            wrap(source, timeout);
        }
    }

    /** Writes bytes straight onto the socket, under TLS: a forged or broken record. */
    void writeRaw(byte[] bytes, Duration timeout) throws IOException {
        raw.write(bytes, timeout);
    }

    /** One frame from inside TLS, at most {@code max} bytes. */
    byte[] readFrame(int max, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        fillApp(4, deadline);
        int length = appIn.getInt(0);
        if (length < 1 || length > max) {
            throw new IOException("the broker sent a frame of " + length + " bytes");
        }
        fillApp(4 + length, deadline);
        appIn.flip();
        appIn.getInt();
        byte[] frame = new byte[length];
        appIn.get(frame);
        appIn.compact();
        return frame;
    }

    /** True when the broker ends the connection (close_notify, end of stream, reset or a TLS alert) within {@code within}. */
    boolean closedByPeerWithin(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        try {
            while (true) {
                appIn.clear();
                if (!unwrap(deadline)) {
                    return true;
                }
            }
        } catch (RawSocket.DeadlineException e) {
            return false;
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    void shutdownOutput() {
        raw.shutdownOutput();
    }

    private void fillApp(int bytes, long deadline) throws IOException {
        while (appIn.position() < bytes) {
            if (!unwrap(deadline)) {
                throw new EOFException("the broker closed the connection");
            }
        }
    }

    private void wrap(ByteBuffer source, Duration timeout) throws IOException {
        netOut.clear();
        SSLEngineResult result = engine.wrap(source, netOut);
        if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
            throw new EOFException("TLS is closed");
        }
        raw.write(netOut.flip(), timeout);
    }

    /** Unwraps one step, reading from the socket when needed; false once TLS or the socket is closed. */
    private boolean unwrap(long deadline) throws IOException {
        while (true) {
            netIn.flip();
            SSLEngineResult result = engine.unwrap(netIn, appIn);
            netIn.compact();
            switch (result.getStatus()) {
                case OK:
                    return true;
                case CLOSED:
                    return false;
                case BUFFER_OVERFLOW:
                    appIn = grow(appIn, engine.getSession().getApplicationBufferSize());
                    break;
                default: // underflow: need more bytes
                    if (!netIn.hasRemaining()) {
                        netIn = grow(netIn, engine.getSession().getPacketBufferSize());
                    }
                    if (raw.read(netIn, deadline) < 0) {
                        return false;
                    }
            }
        }
    }

    private static ByteBuffer grow(ByteBuffer buffer, int more) {
        ByteBuffer bigger = ByteBuffer.allocate(buffer.capacity() + more);
        return bigger.put(buffer.flip());
    }

    /** Accepts exactly one server certificate (by DER SHA-256), like the helper's pinned trust. */
    private static final class Pinned extends X509ExtendedTrustManager {
        private final String sha256;

        Pinned(String sha256) {
            this.sha256 = sha256;
        }

        private void check(X509Certificate[] chain) throws CertificateException {
            if (chain == null
                    || chain.length == 0
                    || !SessionCertificate.sha256(chain[0]).equals(sha256)) {
                throw new CertificateException("not the pinned broker certificate");
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            check(chain);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("client side only");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            throw new CertificateException("client side only");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            throw new CertificateException("client side only");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
