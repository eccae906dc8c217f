package dev.lomicontrol.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.testing.WireFrames;
import dev.lomicontrol.transport.FrameException.Reason;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Mutual TLS 1.3 switched on in place, each side pinned to exactly one certificate. */
class PinnedTlsTests {

    static final Duration WAIT = EnrollingBroker.WAIT;

    @TempDir
    Path dir;

    final SessionCertificate helper = SessionCertificate.generate("helper.lomi.invalid");
    EnrollingBroker broker;

    @BeforeEach
    void startBroker() throws Exception {
        broker = new EnrollingBroker(dir.resolve("control.sock"));
    }

    @AfterEach
    void stopBroker() {
        broker.close();
    }

    @Test
    void framesRoundTripBothWaysAfterMutualTlsWithCorrectPins() throws Exception {
        byte[] large = new byte[256 * 1024]; // many TLS records
        new Random(7).nextBytes(large);
        try (FrameChannel client = EnrollingBroker.enroll(broker.socket(), helper, broker.certificate.sha256())) {
            assertThat(broker.afterTls.next())
                    .as("the broker saw the helper's certificate")
                    .isEqualTo(helper.certificate());
            client.write("inside tls".getBytes(UTF_8));
            assertThat(client.read(WAIT, 64)).asString(UTF_8).isEqualTo("inside tls");
            client.write(large);
            assertThat(client.read(WAIT, Frames.MAX_FRAME_BYTES)).isEqualTo(large);
            assertThat(broker.afterTls.nextFrame()).asString(UTF_8).isEqualTo("inside tls");
        }
    }

    @Test
    void startTlsReturnsThePinnedPeerCertificateOnBothSides() throws Exception {
        try (FrameChannel client = UnixSocketClient.connect(broker.socket(), WAIT)) {
            client.write(helper.der());
            X509Certificate welcome = SessionCertificate.parse(client.read(WAIT, Frames.MAX_METADATA_BYTES));
            assertThat(SessionCertificate.sha256(welcome)).isEqualTo(broker.certificate.sha256());
            X509Certificate server =
                    client.startTls(PinnedTls.client(helper, SessionCertificate.sha256(welcome)), WAIT);
            assertThat(server).isEqualTo(broker.certificate.certificate());
            assertThat(broker.afterTls.next()).isEqualTo(helper.certificate());
        }
    }

    @Test
    void aConnectionThatBreaksUnderTheLastPlaintextFrameEndsTheSwitchAtOnceNotAtItsDeadline() throws Exception {
        // the server's last plaintext frame is handed to the event loop and fails there (the peer stopped
        // reading: EPIPE), which closes the connection just before the TLS switch reaches the loop; the switch
        // must see that, not wait out its deadline for a handshake that cannot come (the broker socket fuzz
        // suite found connection slots held this way). Twenty connections, each run of the race once.
        //
        // The peer shuts its input before the server writes (the permit below): the order this test is about.
        // It used to rely on the client's shutdownInput usually beating the server's write; under load the
        // write sometimes won, the frame reached the client intact, and the switch then waited for its
        // deadline, which is right: see theSwitchOfAPeerThatStopsReadingAfterTheLastPlaintextFrameEndsAtItsDeadline.
        Duration tlsTimeout = Duration.ofSeconds(3);
        SessionCertificate server = SessionCertificate.generate("broker.lomi.invalid");
        Outcomes seen = new Outcomes();
        Semaphore inputShut = new Semaphore(0);
        try (UnixSocketServer broken = UnixSocketServer.bind(dir.resolve("broken.sock"), 1, channel -> {
            long started = 0;
            try {
                channel.read(WAIT, Frames.MAX_METADATA_BYTES);
                if (!inputShut.tryAcquire(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("the client never shut its input");
                }
                started = System.nanoTime();
                channel.write("welcome".getBytes(UTF_8));
                channel.startTls(PinnedTls.server(server, helper.sha256()), tlsTimeout);
                seen.add("switched");
            } catch (FrameException e) {
                seen.add(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                seen.add(e);
            }
            seen.add(Duration.ofNanos(System.nanoTime() - started));
        })) {
            for (int connection = 0; connection < 20; connection++) {
                dev.lomicontrol.testing.Eventually.until(
                        "the previous connection's handler returned", WAIT, () -> broken.openConnections() == 0);
                try (RawClient raw = RawClient.connect(broken.socket())) {
                    raw.write(WireFrames.frame("enrolment".getBytes(UTF_8)));
                    raw.channel.shutdownInput(); // the server's writes now fail (EPIPE)
                    inputShut.release();
                    Object outcome = seen.next();
                    assertThat(outcome).isInstanceOf(FrameException.class);
                    assertThat(((FrameException) outcome).reason())
                            .as("connection %d", connection)
                            .isEqualTo(Reason.CLOSED);
                    assertThat((Duration) seen.next())
                            .as("connection %d: the switch ended without waiting for its deadline", connection)
                            .isLessThan(tlsTimeout.dividedBy(2));
                }
            }
        }
    }

    @Test
    void theSwitchOfAPeerThatStopsReadingAfterTheLastPlaintextFrameEndsAtItsDeadline() throws Exception {
        // the other order: the last plaintext frame reached the peer, then it shut its input. A Unix socket
        // tells the writer nothing of that until it writes again, and a TLS server writes nothing before the
        // ClientHello, so the connection is a silent peer: it holds its slot until the switch's deadline and
        // no longer (what made the test above flaky under load when the write won its race)
        Duration tlsTimeout = Duration.ofMillis(300);
        SessionCertificate server = SessionCertificate.generate("broker.lomi.invalid");
        Outcomes seen = new Outcomes();
        try (UnixSocketServer deaf = UnixSocketServer.bind(dir.resolve("deaf.sock"), 1, channel -> {
            try {
                channel.read(WAIT, Frames.MAX_METADATA_BYTES);
                channel.write("welcome".getBytes(UTF_8));
                channel.startTls(PinnedTls.server(server, helper.sha256()), tlsTimeout);
                seen.add("switched");
            } catch (FrameException e) {
                seen.add(e);
            }
        })) {
            try (RawClient raw = RawClient.connect(deaf.socket())) {
                raw.write(WireFrames.frame("enrolment".getBytes(UTF_8)));
                assertThat(raw.readFrame()).asString(UTF_8).isEqualTo("welcome");
                raw.channel.shutdownInput();
                long shut = System.nanoTime();
                assertThat(((FrameException) seen.next()).reason()).isEqualTo(Reason.DEADLINE);
                assertThat(Duration.ofNanos(System.nanoTime() - shut)).isLessThan(WAIT);
                dev.lomicontrol.testing.Eventually.until(
                        "the slot is free again", WAIT, () -> deaf.openConnections() == 0);
            }
        }
    }

    @Test
    void theSessionIsTls13() throws Exception {
        try (FrameChannel client = EnrollingBroker.enroll(broker.socket(), helper, broker.certificate.sha256())) {
            SSLSession session = ((SocketFrameChannel) client).tlsSession();
            assertThat(session.getProtocol()).isEqualTo("TLSv1.3");
            assertThat(session.getCipherSuite())
                    .as("ChaCha20-Poly1305: the fast suite for the helper's C1-only JVM")
                    .isEqualTo("TLS_CHACHA20_POLY1305_SHA256");
            assertThat(session.getLocalCertificates()).containsExactly(helper.certificate());
            assertThat(session.getPeerCertificates()).containsExactly(broker.certificate.certificate());
        }
    }

    @Test
    void aClientHelloThatArrivesBeforeTheServerSwitchesIsNotLost() throws Exception {
        broker.pauseBeforeTls = Duration.ofMillis(300); // the ClientHello waits in the plaintext buffer meanwhile
        try (FrameChannel client = EnrollingBroker.enroll(broker.socket(), helper, broker.certificate.sha256())) {
            client.write("after a late switch".getBytes(UTF_8));
            assertThat(client.read(WAIT, 64)).asString(UTF_8).isEqualTo("after a late switch");
        }
    }

    @Test
    void aClientPinningTheWrongBrokerHashFailsOnBothSides() throws Exception {
        String impostor = SessionCertificate.generate("impostor.lomi.invalid").sha256();
        assertThatThrownBy(() -> EnrollingBroker.enroll(broker.socket(), helper, impostor))
                .isInstanceOfSatisfying(
                        FrameException.class, e -> assertThat(e.reason()).isEqualTo(Reason.TLS_FAILED));
        assertThat(broker.afterTls.nextFailureReason()).isEqualTo(Reason.TLS_FAILED);
    }

    @Test
    void aServerPinningAnotherClientCertificateRefusesTheClient() throws Exception {
        String approvedSomeoneElse =
                SessionCertificate.generate("helper.lomi.invalid").sha256();
        broker.approval = enrolled -> approvedSomeoneElse;
        assertThatThrownBy(() -> EnrollingBroker.enroll(broker.socket(), helper, broker.certificate.sha256()))
                .isInstanceOfSatisfying(
                        FrameException.class, e -> assertThat(e.reason()).isEqualTo(Reason.TLS_FAILED));
        assertThat(broker.afterTls.nextFailureReason()).isEqualTo(Reason.TLS_FAILED);
        broker.afterTls.assertNoMoreWithin(Duration.ofMillis(200));
    }

    @Test
    void theHandshakeTimesOutWhenThePeerNeverStartsTls() throws Exception {
        broker.tlsTimeout = Duration.ofMillis(300);
        try (FrameChannel client = UnixSocketClient.connect(broker.socket(), WAIT)) {
            long start = System.nanoTime();
            client.write(helper.der());
            client.read(WAIT, Frames.MAX_METADATA_BYTES);
            FrameException timeout = broker.afterTls.nextFailure();
            assertThat(timeout.reason()).isEqualTo(Reason.DEADLINE);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(250), WAIT);
            assertThatThrownBy(() -> client.read(WAIT, 64))
                    .isInstanceOfSatisfying(
                            FrameException.class, e -> assertThat(e.reason()).isEqualTo(Reason.CLOSED));
        }
    }

    @Test
    void plaintextSentAfterTheSwitchIsNeverReadAsAFrame() throws Exception {
        try (RawClient raw = RawClient.connect(broker.socket())) {
            raw.write(WireFrames.frame(helper.der()));
            raw.readFrame();
            raw.write(WireFrames.frame("{\"request\":\"not tls\"}".getBytes(UTF_8)));
            assertThat(broker.afterTls.nextFailureReason()).isEqualTo(Reason.TLS_FAILED);
            assertThat(raw.closedByPeerWithin(WAIT)).isTrue();
        }
    }

    @Test
    void startingTlsTwiceIsAProgrammingError() throws Exception {
        try (FrameChannel client = EnrollingBroker.enroll(broker.socket(), helper, broker.certificate.sha256())) {
            assertThatThrownBy(() -> client.startTls(PinnedTls.client(helper, broker.certificate.sha256()), WAIT))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aMalformedPinIsRefused() {
        assertThatThrownBy(() -> PinnedTls.client(helper, "ABC")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PinnedTls.server(helper, helper.sha256().toUpperCase()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * What each side's engine is set to, read from the engines themselves: the contexts are plain JDK
     * {@code SSLContext}s (the broker's Netty channels wrap the same engine in an {@code SslHandler}, the helper's
     * socket channel drives it itself), so nothing of a builder's defaults may be assumed.
     */
    @Test
    void eachSidesEngineIsTls13OnlyWithOurSuitesAndTheServerRequiresAClientCertificate() {
        SessionCertificate other = SessionCertificate.generate("broker.lomi.invalid");
        SSLEngine server = PinnedTls.server(other, helper.sha256()).newEngine();
        SSLEngine client = PinnedTls.client(helper, other.sha256()).newEngine();

        assertThat(server.getUseClientMode()).isFalse();
        assertThat(server.getNeedClientAuth()).as("client certificate required").isTrue();
        assertThat(client.getUseClientMode()).isTrue();
        assertThat(client.getSSLParameters().getEndpointIdentificationAlgorithm())
                .as("no host check: the pin decides")
                .isNull();
        for (SSLEngine engine : new SSLEngine[] {server, client}) {
            assertThat(engine.getEnabledProtocols()).containsExactly("TLSv1.3");
            assertThat(engine.getEnabledCipherSuites()).containsExactlyElementsOf(PinnedTls.CIPHER_SUITES);
            assertThat(engine.getPeerHost()).as("nothing to resume by host").isNull();
        }
    }
}
