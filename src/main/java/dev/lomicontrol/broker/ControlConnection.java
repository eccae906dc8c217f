package dev.lomicontrol.broker;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.ipc.CallRequest;
import dev.lomicontrol.ipc.CallResponse;
import dev.lomicontrol.ipc.Enrollment;
import dev.lomicontrol.ipc.IpcJson;
import dev.lomicontrol.ipc.PairingOutcome;
import dev.lomicontrol.ipc.Welcome;
import dev.lomicontrol.pairing.Decision;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.transport.FrameChannel;
import dev.lomicontrol.transport.FrameException;
import dev.lomicontrol.transport.Frames;
import dev.lomicontrol.transport.PinnedTls;
import dev.lomicontrol.transport.SessionCertificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection on the control socket, as blocking code on its own thread:
 * plaintext enrollment → pending pairing → the admin's decision → mutual TLS pinned to the
 * enrolled certificate → one call at a time until the connection or the session's authority ends.
 * Any protocol violation ends this connection only.
 */
final class ControlConnection {

    static final Duration ENROLLMENT_DEADLINE = Duration.ofSeconds(10);
    static final Duration TLS_DEADLINE = Duration.ofSeconds(10);
    /** How long a connection waits for one of the handshake slots before it is refused. */
    static final Duration HANDSHAKE_QUEUE = Duration.ofSeconds(10);

    static final int MAX_ENROLLMENT_BYTES = 16 * 1024;
    static final int MAX_LABEL = 80;
    static final int MAX_CERTIFICATE_BYTES = 8192;

    private static final Logger log = LoggerFactory.getLogger(ControlConnection.class);

    private final FrameChannel channel;
    private final SessionCertificate brokerCertificate;
    private final String instanceId;
    private final Pairings pairings;
    private final Sessions sessions;
    private final BrokerCalls calls;
    private final Semaphore handshakes;
    private final long uid;
    private final java.util.function.Supplier<java.util.List<String>> warnings;

    ControlConnection(
            FrameChannel channel,
            SessionCertificate brokerCertificate,
            String instanceId,
            Pairings pairings,
            Sessions sessions,
            BrokerCalls calls,
            Semaphore handshakes,
            long uid,
            java.util.function.Supplier<java.util.List<String>> warnings) {
        this.warnings = warnings;
        this.channel = channel;
        this.brokerCertificate = brokerCertificate;
        this.instanceId = instanceId;
        this.pairings = pairings;
        this.sessions = sessions;
        this.calls = calls;
        this.handshakes = handshakes;
        this.uid = uid;
    }

    void serve() {
        try {
            if (channel.peer().uid() != uid) {
                log.warn(
                        "refused a connection from uid {} (pid {})",
                        channel.peer().uid(),
                        channel.peer().pid());
                return;
            }
            Pairings.Pending pending = enroll();
            if (pending == null) {
                return;
            }
            Decision decision = awaitDecision(pending);
            if (!(decision instanceof Decision.Approved)) {
                refuse(PairingOutcome.DENIED, ((Decision.Denied) decision).reason());
                return;
            }
            Session session = authenticate(pending, ((Decision.Approved) decision));
            if (session != null) {
                try {
                    serveCalls(session);
                } finally {
                    sessions.revoke(session.id(), "disconnected");
                    calls.sessionEnded(session);
                }
            }
        } catch (FrameException e) {
            log.debug("control connection ended: {}", e.getMessage());
        } finally {
            channel.close();
        }
    }

    /** Reads and checks the enrollment under the handshake cap; answers with Welcome. Null = refused. */
    private Pairings.@Nullable Pending enroll() throws FrameException {
        if (!awaitHandshakeSlot()) {
            log.warn(
                    "refused a connection: {} handshakes were under way for {}",
                    ControlEndpoint.MAX_HANDSHAKES,
                    HANDSHAKE_QUEUE);
            refuse(PairingOutcome.REFUSED, "the broker is busy with other handshakes; the client asks again by itself");
            return null;
        }
        try {
            Enrollment enrollment;
            X509Certificate certificate;
            try {
                enrollment = IpcJson.read(channel.read(ENROLLMENT_DEADLINE, MAX_ENROLLMENT_BYTES), Enrollment.class);
                certificate = validate(enrollment);
            } catch (LomiException e) {
                refuse(PairingOutcome.REFUSED, e.getMessage());
                return null;
            }
            Pairings.Pending pending;
            try {
                pending = pairings.submit(
                        enrollment.clientLabel(),
                        SessionCertificate.sha256(certificate),
                        channel.peer().pid());
            } catch (LomiException e) {
                refuse(PairingOutcome.REFUSED, e.getMessage());
                return null;
            }
            channel.onClose(() -> pairings.withdraw(pending.request().id()));
            channel.write(IpcJson.write(new Welcome(
                    IpcJson.IPC_VERSION,
                    instanceId,
                    Base64.getEncoder().encodeToString(brokerCertificate.der()),
                    pending.request().id())));
            return pending;
        } finally {
            handshakes.release();
        }
    }

    private X509Certificate validate(Enrollment enrollment) {
        if (enrollment.ipcVersion() != IpcJson.IPC_VERSION) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "unsupported ipcVersion " + enrollment.ipcVersion());
        }
        if (!instanceId.equals(enrollment.instanceId())) {
            throw new LomiException(
                    ErrorCode.APP_UNAVAILABLE, "this broker is instance " + instanceId + "; read discovery.json again");
        }
        String label = enrollment.clientLabel();
        if (label == null
                || label.isEmpty()
                || label.length() > MAX_LABEL
                || label.chars().anyMatch(Character::isISOControl)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "clientLabel must be 1-80 characters without control characters");
        }
        byte[] der;
        try {
            der = Base64.getDecoder().decode(enrollment.certificate() == null ? "" : enrollment.certificate());
        } catch (IllegalArgumentException e) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "certificate is not base64");
        }
        if (der.length == 0 || der.length > MAX_CERTIFICATE_BYTES) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "certificate must be 1-8192 bytes");
        }
        try {
            return SessionCertificate.parse(der);
        } catch (IllegalArgumentException e) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "certificate is not a valid X.509 certificate");
        }
    }

    private Decision awaitDecision(Pairings.Pending pending) {
        try {
            return pending.decision().get(Pairings.EXPIRY.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            pairings.withdraw(pending.request().id());
            return new Decision.Denied("the pairing request expired");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Decision.Denied("the broker is shutting down");
        } catch (ExecutionException e) {
            return new Decision.Denied("pairing failed: " + e.getCause());
        }
    }

    /** Announces approval, then runs mutual TLS pinned to exactly the enrolled certificate. */
    private @Nullable Session authenticate(Pairings.Pending pending, Decision.Approved approved) throws FrameException {
        // the standing warnings travel in the approval's message: lomi_status shows them as its detail
        String message = String.join(
                "; ",
                java.util.stream.Stream.concat(
                                java.util.stream.Stream.of("approved"),
                                warnings.get().stream().map(warning -> "WARNING: " + warning))
                        .toList());
        channel.write(IpcJson.write(new PairingOutcome(PairingOutcome.APPROVED, message)));
        if (!awaitHandshakeSlot()) {
            log.warn(
                    "closed an approved connection: {} handshakes were under way for {}",
                    ControlEndpoint.MAX_HANDSHAKES,
                    HANDSHAKE_QUEUE);
            return null;
        }
        try {
            channel.startTls(
                    PinnedTls.server(brokerCertificate, pending.request().certificateSha256()), TLS_DEADLINE);
        } finally {
            handshakes.release();
        }
        return sessions.open(pending.request(), approved.grant(), channel::close);
    }

    /** Waits its turn among at most {@link ControlEndpoint#MAX_HANDSHAKES}: a burst of agents queues, none is dropped. */
    private boolean awaitHandshakeSlot() {
        try {
            return handshakes.tryAcquire(HANDSHAKE_QUEUE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void serveCalls(Session session) throws FrameException {
        while (channel.isOpen() && session.isAlive()) {
            byte[] frame = channel.read(null, Frames.MAX_FRAME_BYTES);
            channel.setStrict(true);
            CallRequest request;
            try {
                request = CallRequest.read(frame);
            } catch (LomiException e) {
                log.debug("session {}: malformed call, closing: {}", session.id(), e.getMessage());
                return;
            }
            CallResponse response =
                    new CallResponse(request.requestId(), calls.call(session, request.tool(), request.arguments()));
            channel.setStrict(false);
            if (!session.isAlive()) {
                return;
            }
            channel.write(response.toFrame());
        }
    }

    private void refuse(String outcome, String message) {
        try {
            channel.write(IpcJson.write(new PairingOutcome(outcome, message)));
        } catch (FrameException ignored) {
            // the client is gone; nothing to tell
        }
    }
}
