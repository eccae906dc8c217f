package dev.lomicontrol.transport;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * A minimal broker for tests: plaintext enrollment (client certificate DER in, broker certificate DER out),
 * then pinned mutual TLS, then an echo of every frame. Records what each connection's handler saw.
 */
final class EnrollingBroker implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(5);

    final SessionCertificate certificate = SessionCertificate.generate("0123456789abcdef0123456789abcdef.lomi.invalid");
    final Outcomes plaintext = new Outcomes();
    final Outcomes afterTls = new Outcomes();
    final UnixSocketServer server;

    /** Maps the enrolled client's SHA-256 to the pin the broker uses (identity = it approves that client). */
    volatile UnaryOperator<String> approval = UnaryOperator.identity();

    volatile Duration pauseBeforeTls = Duration.ZERO;
    volatile Duration tlsTimeout = WAIT;

    EnrollingBroker(Path socket) throws Exception {
        server = UnixSocketServer.bind(socket, 4, this::serve);
    }

    Path socket() {
        return server.socket();
    }

    private void serve(FrameChannel channel) {
        try {
            byte[] enrollment = channel.read(WAIT, Frames.MAX_METADATA_BYTES);
            plaintext.add(enrollment);
            channel.write(certificate.der());
            // intentional, not synchronisation (docs/adr/0011): a broker slow to start TLS is what some tests need
            Thread.sleep(pauseBeforeTls.toMillis());
            String pin = approval.apply(SessionCertificate.sha256(SessionCertificate.parse(enrollment)));
            X509Certificate peer = channel.startTls(PinnedTls.server(certificate, pin), tlsTimeout);
            afterTls.add(peer);
            while (true) {
                byte[] frame = channel.read(null, Frames.MAX_FRAME_BYTES);
                afterTls.add(frame);
                channel.write(frame);
            }
        } catch (FrameException e) {
            afterTls.add(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The helper side: enrolls in plaintext, checks the broker's certificate against {@code brokerPin}, switches to TLS. */
    static FrameChannel enroll(Path socket, SessionCertificate own, String brokerPin) throws Exception {
        FrameChannel channel = UnixSocketClient.connect(socket, WAIT);
        try {
            channel.write(own.der());
            channel.read(WAIT, Frames.MAX_METADATA_BYTES);
            channel.startTls(PinnedTls.client(own, brokerPin), WAIT);
            return channel;
        } catch (Exception e) {
            channel.close();
            throw e;
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
