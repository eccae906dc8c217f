package dev.lomicontrol.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.transport.FrameException.Reason;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Someone who recorded a whole session's client bytes cannot replay it: every handshake has fresh server keys. */
class HandshakeReplayTests {

    static final Duration WAIT = EnrollingBroker.WAIT;

    @TempDir
    Path dir;

    @Test
    void aRecordedSessionReplayedOnAFreshConnectionDeliversNoFrameAfterTls() throws Exception {
        SessionCertificate helper = SessionCertificate.generate("helper.lomi.invalid");
        try (EnrollingBroker broker = new EnrollingBroker(dir.resolve("control.sock"));
                RecordingRelay relay = new RecordingRelay(dir.resolve("relay.sock"), broker.socket())) {
            byte[] recorded = recordOneSession(broker, relay, helper);

            try (RawClient replay = RawClient.connect(broker.socket())) {
                replay.write(recorded);
                assertThat(broker.plaintext.nextFrame())
                        .as("plaintext enrollment is replayable by nature")
                        .isEqualTo(helper.der());
                assertThat(broker.afterTls.nextFailureReason()).isEqualTo(Reason.TLS_FAILED);
                broker.afterTls.assertNoMoreWithin(Duration.ofMillis(300));
                assertThat(replay.closedByPeerWithin(WAIT)).isTrue();
            }
        }
    }

    /** One genuine session through the relay: enrollment, TLS, one request inside TLS, close. */
    private static byte[] recordOneSession(EnrollingBroker broker, RecordingRelay relay, SessionCertificate helper)
            throws Exception {
        Path relaySocket = broker.socket().resolveSibling("relay.sock");
        try (FrameChannel client = EnrollingBroker.enroll(relaySocket, helper, broker.certificate.sha256())) {
            client.write("secret request".getBytes(UTF_8));
            assertThat(client.read(WAIT, 64)).asString(UTF_8).isEqualTo("secret request");
        }
        assertThat(broker.plaintext.nextFrame()).isEqualTo(helper.der());
        assertThat(broker.afterTls.next()).isEqualTo(helper.certificate());
        assertThat(broker.afterTls.nextFrame()).asString(UTF_8).isEqualTo("secret request");
        assertThat(broker.afterTls.nextFailureReason())
                .as("the genuine session ended")
                .isEqualTo(Reason.CLOSED);
        byte[] recorded = relay.recordedClientBytes();
        assertThat(recorded.length)
                .as("plaintext frame plus a full TLS session")
                .isGreaterThan(helper.der().length + 500);
        return recorded;
    }
}
