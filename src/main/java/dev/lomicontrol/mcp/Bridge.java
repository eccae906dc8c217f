package dev.lomicontrol.mcp;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.ipc.BrokerClient;
import dev.lomicontrol.ipc.BrokerClient.CallFailure;
import dev.lomicontrol.ipc.BrokerClient.Phase;
import dev.lomicontrol.ipc.CallAnswer;
import dev.lomicontrol.ipc.CallRequest;
import dev.lomicontrol.ipc.IpcJson;
import dev.lomicontrol.tools.Effect;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import tools.jackson.databind.node.ObjectNode;

/**
 * Forwards a tool call to the broker, exactly once unless proven safe (seed 004, SPEC §7).
 *
 * <p>The resend rule: when a call fails, it is sent once more (after reconnecting) only if the
 * broker provably did not receive it ({@code !mayHaveReachedBroker()}: not connected, or the
 * session was gone before the frame was written) or the tool is read-only ({@link
 * Effect#mayResendAfterLostAnswer}). Any other failure — a dropped connection or a timeout after
 * the frame was written, for an OP or MUT tool — is answered as {@link Forwarded.OutcomeUnknown}
 * and never sent again. A call whose frame would exceed the frame limit is refused before anything
 * is sent and causes no reconnect. The whole forward, including a resend, is bounded by the call
 * timeout (calls queue behind each other: one call at a time per connection).
 */
final class Bridge {

    /** What became of a forwarded call. */
    sealed interface Forwarded permits Forwarded.Answered, Forwarded.Refused, Forwarded.OutcomeUnknown {
        /** The broker's Control API envelope ({@link CallAnswer#isEnvelope()}). */
        record Answered(CallAnswer answer) implements Forwarded {}

        /** Not executed by the broker (never sent, or a read that changes nothing): an error envelope. */
        record Refused(ErrorCode code, String message) implements Forwarded {}

        /** Sent, unanswered, and not safe to repeat: it may have run. */
        record OutcomeUnknown(String cause) implements Forwarded {}
    }

    /** How long a call waits for a connection that is still being set up before answering with the phase. */
    static final Duration CONNECTING_GRACE = Duration.ofSeconds(10);

    /**
     * What a waiting call ({@code waitMs}) leaves of the call timeout for the rest of its way: its wait
     * is cut to what is left of its timeout minus this, so waiting can never outlast the helper and
     * turn into an unknown outcome (the default 30 s timeout lets the full 25 s through when no
     * earlier call held the connection).
     */
    static final Duration WAIT_MARGIN = Duration.ofSeconds(5);

    /** A call is not sent at all when less than this is left of its timeout (it could only time out). */
    static final Duration MIN_WAIT = Duration.ofMillis(200);

    private final Connector connector;
    private final Duration callTimeout;
    private final int maxFrameBytes;
    private final ReentrantLock oneAtATime = new ReentrantLock(true);

    Bridge(Connector connector, Duration callTimeout, int maxFrameBytes) {
        this.connector = connector;
        this.callTimeout = callTimeout;
        this.maxFrameBytes = maxFrameBytes;
    }

    /** The resend rule as a truth table: unknown tools (empty) count as non-idempotent. */
    static boolean mayResend(Optional<Effect> effect, boolean mayHaveReachedBroker) {
        return !mayHaveReachedBroker
                || effect.map(Effect::mayResendAfterLostAnswer).orElse(false);
    }

    /** Forwards one call; blocks up to the call timeout (plus the transport's frame deadline). */
    Forwarded forward(ToolDefinition tool, ObjectNode arguments) throws InterruptedException {
        long deadline = System.nanoTime() + callTimeout.toNanos();
        int frame = new CallRequest(IpcJson.IPC_VERSION, "r" + Long.MAX_VALUE, tool.name(), arguments).toFrame().length;
        if (frame > maxFrameBytes) {
            return new Forwarded.Refused(
                    ErrorCode.PAYLOAD_TOO_LARGE,
                    "payload too large: the call is " + frame + " bytes and the broker accepts at most " + maxFrameBytes
                            + "; it was not sent");
        }
        if (!oneAtATime.tryLock(callTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
            return new Forwarded.Refused(
                    ErrorCode.DEADLINE_EXCEEDED,
                    "earlier calls kept the broker connection busy for " + callTimeout.toSeconds()
                            + " s; this call was not sent");
        }
        try {
            return forwardLocked(tool, arguments, deadline);
        } finally {
            oneAtATime.unlock();
        }
    }

    /** The connected client; a connection still being set up is given a short grace to finish. */
    private Optional<BrokerClient> connectedClient(long deadline) throws InterruptedException {
        Optional<BrokerClient> client = connector.connected();
        if (client.isEmpty() && connector.isConnecting()) {
            client = connector.awaitConnected(min(CONNECTING_GRACE, remaining(deadline)));
        }
        return client;
    }

    private Forwarded forwardLocked(ToolDefinition tool, ObjectNode arguments, long deadline)
            throws InterruptedException {
        Optional<BrokerClient> client = connectedClient(deadline);
        if (client.isEmpty()) {
            return notConnected();
        }
        if (remaining(deadline).compareTo(MIN_WAIT) < 0) {
            return new Forwarded.Refused(
                    ErrorCode.DEADLINE_EXCEEDED,
                    "the call timeout passed while earlier calls used the broker connection; " + "it was not sent");
        }
        CallFailure first;
        try {
            return answered(
                    tool, client.get().call(tool.name(), bounded(tool, arguments, deadline), remaining(deadline)));
        } catch (CallFailure failure) {
            first = failure;
        }
        connector.lost(client.get());
        if (!mayResend(Optional.of(tool.effect()), first.mayHaveReachedBroker())) {
            Diagnostics.warn(tool.name() + ": " + first.getMessage() + "; it may have run, so it is not sent again");
            return new Forwarded.OutcomeUnknown(first.getMessage());
        }
        Diagnostics.info(tool.name() + ": " + first.getMessage() + "; sending it once more after reconnecting ("
                + (first.mayHaveReachedBroker() ? "read-only" : "it was not sent") + ")");
        return resend(tool, arguments, deadline, first);
    }

    private Forwarded resend(ToolDefinition tool, ObjectNode arguments, long deadline, CallFailure first)
            throws InterruptedException {
        Optional<BrokerClient> again = connector.awaitConnected(remaining(deadline));
        if (again.isPresent() && remaining(deadline).compareTo(MIN_WAIT) < 0) {
            return new Forwarded.Refused(
                    ErrorCode.DEADLINE_EXCEEDED,
                    "the call timeout passed while reconnecting after: " + first.getMessage()
                            + (first.mayHaveReachedBroker()
                                    ? "; it is read-only, so call it again"
                                    : "; it was not sent"));
        }
        if (again.isEmpty()) {
            Forwarded.Refused phase = notConnected();
            return new Forwarded.Refused(
                    phase.code(),
                    "the broker connection was lost (" + first.getMessage() + ") and no new connection was "
                            + "ready in time, so "
                            + (first.mayHaveReachedBroker()
                                    ? "this read-only call can simply be repeated"
                                    : "it was not sent")
                            + "; " + phase.message());
        }
        try {
            return answered(
                    tool, again.get().call(tool.name(), bounded(tool, arguments, deadline), remaining(deadline)));
        } catch (CallFailure second) {
            connector.lost(again.get());
            if (second.mayHaveReachedBroker() && !tool.effect().mayResendAfterLostAnswer()) {
                return new Forwarded.OutcomeUnknown(second.getMessage());
            }
            return new Forwarded.Refused(
                    ErrorCode.APP_UNAVAILABLE, "the broker did not answer twice (" + second.getMessage() + ")");
        }
    }

    /** A broker answer that is not a Control API envelope is no answer: for a non-read it may have run. */
    private static Forwarded answered(ToolDefinition tool, CallAnswer answer) {
        if (answer.isEnvelope()) {
            return new Forwarded.Answered(answer);
        }
        String cause = "the broker's answer is not a Control API envelope";
        return tool.effect().mayResendAfterLostAnswer()
                ? new Forwarded.Refused(ErrorCode.APP_UNAVAILABLE, cause)
                : new Forwarded.OutcomeUnknown(cause);
    }

    private Forwarded.Refused notConnected() {
        BrokerClient.State state = connector.state();
        if (state.phase() == Phase.PAIRING_REQUIRED) {
            return new Forwarded.Refused(
                    ErrorCode.PAIRING_REQUIRED,
                    "the admin has not approved this client yet; ask them to run: " + StatusReport.approveCommand(state)
                            + " (lomi_diagnostics shows the next step)");
        }
        if (state.phase() == Phase.BROKER_FULL) {
            return new Forwarded.Refused(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    state.detail() + "; the call was not sent. The helper connects by itself as soon as a slot frees"
                            + " (the admin can free one with 'lomi-control console session revoke <id> --confirm' or raise "
                            + dev.lomicontrol.ipc.BrokerFull.SETTING + ")");
        }
        return new Forwarded.Refused(
                ErrorCode.APP_UNAVAILABLE,
                "not connected to the broker (" + state.phase().wire() + ": " + state.detail()
                        + "); call lomi_diagnostics for the next step");
    }

    /**
     * The arguments as sent: a waiting call's {@code waitMs} cut to what is left of this call's
     * timeout (after queueing behind earlier calls) minus {@link #WAIT_MARGIN}. {@code waitMs} is no
     * part of the request's identity, so this changes nothing but how long the broker waits.
     */
    private static ObjectNode bounded(ToolDefinition tool, ObjectNode arguments, long deadline) {
        return tool.spec().waits()
                ? dev.lomicontrol.tools.Waiting.atMost(
                        arguments, remaining(deadline).minus(WAIT_MARGIN))
                : arguments;
    }

    private static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
