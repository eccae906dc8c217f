package dev.lomicontrol.ipc;

import dev.lomicontrol.core.ProcessIdentity;
import dev.lomicontrol.discovery.DiscoveryException;
import dev.lomicontrol.discovery.DiscoveryFile;
import dev.lomicontrol.discovery.DiscoveryRecord;
import dev.lomicontrol.transport.FrameChannel;
import dev.lomicontrol.transport.FrameException;
import dev.lomicontrol.transport.Frames;
import dev.lomicontrol.transport.PinnedTls;
import dev.lomicontrol.transport.SessionCertificate;
import dev.lomicontrol.transport.UnixSocketClient;
import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The helper's side of the private IPC. {@link #connect} verifies discovery.json against the pinned
 * key (any failure: {@code app_unavailable}, and no pairing request is created), enrolls with a
 * fresh in-memory certificate, checks the broker's certificate against the pinned hash, waits for
 * the admin ({@code pairing_required}), then runs mutual TLS ({@code connected}). {@link #call}
 * sends one request at a time with a deadline and says whether the broker may have received it.
 */
public final class BrokerClient implements AutoCloseable {

    /** Connection phases as the helper reports them (wire form: lower case). */
    public enum Phase {
        APP_UNAVAILABLE,
        CONNECTING,
        PAIRING_REQUIRED,
        CONNECTED,
        DISCONNECTED,
        /** The broker refused the connection before TLS: every slot is taken ({@link State#brokerFull()}). */
        BROKER_FULL;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** A snapshot of the client's state for lomi_status/diagnostics; {@code brokerFull} only in {@link Phase#BROKER_FULL}. */
    public record State(
            Phase phase,
            Optional<String> pairingRequestId,
            Optional<String> instanceId,
            String detail,
            Optional<BrokerFull> brokerFull) {

        public State(Phase phase, Optional<String> pairingRequestId, Optional<String> instanceId, String detail) {
            this(phase, pairingRequestId, instanceId, detail, Optional.empty());
        }
    }

    /** A call that did not produce a response. {@code mayHaveReachedBroker} is false only when provably not sent. */
    public static final class CallFailure extends Exception {
        private final String message;
        private final boolean mayHaveReachedBroker;

        CallFailure(String message, boolean mayHaveReachedBroker, @Nullable Throwable cause) {
            super(message, cause);
            this.message = message;
            this.mayHaveReachedBroker = mayHaveReachedBroker;
        }

        /** The message given at construction: never null. */
        @Override
        public String getMessage() {
            return message;
        }

        public boolean mayHaveReachedBroker() {
            return mayHaveReachedBroker;
        }
    }

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration WELCOME_DEADLINE = Duration.ofSeconds(10);
    static final Duration TLS_DEADLINE = Duration.ofSeconds(10);

    private final Path discoveryFile;
    private final String pinnedKeyHex;
    private final String clientLabel;
    private final AtomicLong requestIds = new AtomicLong();
    private volatile State state =
            new State(Phase.DISCONNECTED, Optional.empty(), Optional.empty(), "not connected yet");
    private volatile @Nullable FrameChannel channel;

    public BrokerClient(Path discoveryFile, String pinnedKeyHex, String clientLabel) {
        this.discoveryFile = discoveryFile;
        this.pinnedKeyHex = pinnedKeyHex;
        this.clientLabel = clientLabel;
    }

    public State state() {
        return state;
    }

    /** Runs the whole connection sequence, blocking up to {@code approvalTimeout} for the admin; returns the final state. */
    public synchronized State connect(Duration approvalTimeout) {
        closeChannel();
        DiscoveryRecord record;
        try {
            record = DiscoveryFile.verify(discoveryFile, pinnedKeyHex);
        } catch (DiscoveryException e) {
            return set(Phase.APP_UNAVAILABLE, null, null, "discovery check failed: " + e.getMessage());
        }
        set(Phase.CONNECTING, null, record.instanceId(), "connecting to " + record.endpoint());
        FrameChannel opened;
        try {
            opened = UnixSocketClient.connect(Path.of(record.endpoint()), CONNECT_TIMEOUT);
        } catch (IOException e) {
            return set(
                    Phase.APP_UNAVAILABLE, null, record.instanceId(), "the broker is not reachable: " + e.getMessage());
        }
        if (opened.peer().uid() != ProcessIdentity.uid()) {
            opened.close();
            return set(Phase.APP_UNAVAILABLE, null, record.instanceId(), "the socket belongs to another user");
        }
        channel = opened;
        try {
            return enroll(opened, record, approvalTimeout);
        } catch (FrameException | RuntimeException e) {
            closeChannel();
            return set(Phase.DISCONNECTED, null, record.instanceId(), "connection failed: " + e.getMessage());
        }
    }

    private State enroll(FrameChannel opened, DiscoveryRecord record, Duration approvalTimeout) throws FrameException {
        SessionCertificate own = SessionCertificate.generate("helper.lomi.invalid");
        opened.write(new Enrollment(
                        IpcJson.IPC_VERSION,
                        record.instanceId(),
                        clientLabel,
                        Base64.getEncoder().encodeToString(own.der()))
                .toFrame());
        byte[] first = opened.read(WELCOME_DEADLINE, Frames.MAX_METADATA_BYTES);
        if (BrokerFull.isBrokerFull(first)) {
            BrokerFull full = BrokerFull.read(first);
            closeChannel();
            state = new State(
                    Phase.BROKER_FULL,
                    Optional.empty(),
                    Optional.of(record.instanceId()),
                    full.message() + "; retrying until a slot frees",
                    Optional.of(full));
            return state;
        }
        if (!Welcome.isWelcome(first)) {
            PairingOutcome refused = PairingOutcome.read(first);
            closeChannel();
            return set(
                    Phase.DISCONNECTED,
                    null,
                    record.instanceId(),
                    "the broker refused the enrollment: " + refused.message());
        }
        Welcome welcome = Welcome.read(first);
        X509Certificate broker = SessionCertificate.parse(Base64.getDecoder().decode(welcome.certificate()));
        if (!SessionCertificate.sha256(broker).equals(record.brokerSha256())) {
            closeChannel();
            return set(
                    Phase.APP_UNAVAILABLE,
                    null,
                    record.instanceId(),
                    "the broker's certificate does not match discovery.json");
        }
        set(
                Phase.PAIRING_REQUIRED,
                welcome.pairingRequestId(),
                record.instanceId(),
                "waiting for the admin: lomi-control console pairing approve " + welcome.pairingRequestId());
        PairingOutcome outcome = PairingOutcome.read(opened.read(approvalTimeout, Frames.MAX_METADATA_BYTES));
        if (!PairingOutcome.APPROVED.equals(outcome.outcome())) {
            closeChannel();
            return set(
                    Phase.DISCONNECTED,
                    welcome.pairingRequestId(),
                    record.instanceId(),
                    "pairing " + outcome.outcome() + ": " + outcome.message());
        }
        opened.startTls(PinnedTls.client(own, record.brokerSha256()), TLS_DEADLINE);
        // anything after "approved" is a standing warning of the broker (e.g. unsandboxed terminals)
        String warnings =
                outcome.message().startsWith("approved; ") ? outcome.message().substring("approved".length()) : "";
        return set(Phase.CONNECTED, welcome.pairingRequestId(), record.instanceId(), "connected" + warnings);
    }

    /**
     * Notices, without waiting, a connection the broker closed while no call was under way (a revoke, a broker
     * stop), so that its socket is released at once and the state says {@code disconnected} rather than at the
     * next call (the helper then reconnects by itself).
     */
    public void noticeClose() {
        FrameChannel current = channel;
        if (current != null && !current.isOpen() && channel == current) {
            State previous = state;
            if (previous.phase() == Phase.CONNECTED) {
                state = new State(
                        Phase.DISCONNECTED,
                        previous.pairingRequestId(),
                        previous.instanceId(),
                        "the broker closed the connection");
            }
        }
    }

    /** Sends one call and waits for its response within {@code deadline}. */
    public synchronized CallAnswer call(String tool, JsonNode arguments, Duration deadline) throws CallFailure {
        FrameChannel current = channel;
        // asked once: the helper's channel answers by looking at the socket
        boolean open = current != null && current.isOpen();
        if (current != null && !open && state.phase() == Phase.CONNECTED) {
            lost("the broker closed the connection");
        }
        if (current == null || !open || state.phase() != Phase.CONNECTED) {
            throw new CallFailure("not connected (" + state.phase().wire() + ")", false, null);
        }
        String requestId = "r" + requestIds.incrementAndGet();
        byte[] frame = new CallRequest(IpcJson.IPC_VERSION, requestId, tool, arguments).toFrame();
        if (frame.length > Frames.MAX_FRAME_BYTES) {
            throw new CallFailure("payload too large", false, null);
        }
        try {
            current.write(frame);
        } catch (FrameException e) {
            lost("write failed: " + e.getMessage());
            throw new CallFailure("the connection failed while sending " + requestId, true, e);
        }
        try {
            CallAnswer answer = CallAnswer.read(current.read(deadline, Frames.MAX_FRAME_BYTES));
            if (!requestId.equals(answer.requestId())) {
                lost("response for another request");
                throw new CallFailure("the broker answered another request", true, null);
            }
            return answer;
        } catch (FrameException | RuntimeException e) {
            lost("no response: " + e.getMessage());
            throw new CallFailure("no response to " + requestId + ": " + e.getMessage(), true, e);
        }
    }

    @Override
    public synchronized void close() {
        closeChannel();
        set(Phase.DISCONNECTED, null, null, "closed");
    }

    private void lost(String detail) {
        closeChannel();
        State previous = state;
        state = new State(Phase.DISCONNECTED, previous.pairingRequestId(), previous.instanceId(), detail);
    }

    private void closeChannel() {
        FrameChannel current = channel;
        channel = null;
        if (current != null) {
            current.close();
        }
    }

    private State set(Phase phase, @Nullable String pairingRequestId, @Nullable String instanceId, String detail) {
        state = new State(phase, Optional.ofNullable(pairingRequestId), Optional.ofNullable(instanceId), detail);
        return state;
    }
}
