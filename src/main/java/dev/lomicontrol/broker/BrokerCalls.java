package dev.lomicontrol.broker;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.episodes.Episodes;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.operations.NativeStop;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.OperationWaits;
import dev.lomicontrol.operations.PanelsByKind;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.Waits;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Binder;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.ToolSpec;
import java.util.List;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * The broker's side of tool calls from an authenticated session. Every call first checks that the
 * session still has authority (CONTROL_REVOKED otherwise) and holds the tool's scope (SCOPE_DENIED),
 * counts as traffic that keeps the session's episode alive, validates its arguments natively
 * (unknown fields and out-of-range values are INVALID_ARGUMENT) and answers a Control API envelope
 * whose data names its {@code kind}. Workspaces outside the grant and other sessions' receipts are
 * invisible (TARGET_NOT_FOUND, the same as an unknown id).
 */
@Component
public class BrokerCalls {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(BrokerCalls.class);
    private static final tools.jackson.databind.json.JsonMapper SIZE =
            tools.jackson.databind.json.JsonMapper.builder().build();

    private final Episodes episodes;
    private final WorkspaceAccess access;
    private final OperationRunner runner;
    private final Ledger ledger;
    private final Waits waits;
    private final ToolHandlers handlers;
    /** Every feature (one bean each); a session's end reaches them in this order. */
    private final List<ToolFeature> features;

    /**
     * Registers every feature's tools, each feature seeing every feature's panels ({@code panels}, built
     * from the same features: {@link dev.lomicontrol.operations.OperationsConfiguration}) and native
     * stops; a tool of the catalog no feature handles (or a handler for a tool outside it) stops the start.
     * Each call is checked against this process's host ({@link dev.lomicontrol.tools.HostProbe#current}).
     */
    @org.springframework.beans.factory.annotation.Autowired
    public BrokerCalls(
            List<ToolFeature> features,
            PanelsByKind panels,
            Episodes episodes,
            Ledger ledger,
            WorkspaceAccess access,
            OperationRunner runner,
            Waits waits,
            OperationWaits operationWaits,
            ToolCatalog catalog) {
        this(
                features,
                panels,
                episodes,
                ledger,
                access,
                runner,
                waits,
                operationWaits,
                catalog,
                dev.lomicontrol.tools.HostProbe::current);
    }

    /** As above, each call checked against the host {@code host} probes (a test's environment in tests). */
    public BrokerCalls(
            List<ToolFeature> features,
            PanelsByKind panels,
            Episodes episodes,
            Ledger ledger,
            WorkspaceAccess access,
            OperationRunner runner,
            Waits waits,
            OperationWaits operationWaits,
            ToolCatalog catalog,
            java.util.function.Supplier<dev.lomicontrol.tools.HostProbe> host) {
        this.features = List.copyOf(features);
        this.episodes = episodes;
        this.ledger = ledger;
        this.access = access;
        this.runner = runner;
        this.waits = waits;
        this.handlers = new ToolHandlers(operationWaits, host);
        ToolFeature.Wiring wiring = new ToolFeature.Wiring(handlers, panels, NativeStop.firstOf(this.features));
        this.features.forEach(feature -> feature.register(wiring));
        handlers.requireCovers(catalog.all());
    }

    /**
     * Runs one call; never throws for expected refusals (they become error envelopes). An unknown
     * tool is INVALID_ARGUMENT (the helper never forwards one); the scope is checked before the
     * arguments are bound. An unexpected failure (a bug, not a refusal) is OUTCOME_UNKNOWN, logged
     * with its stack: the session and its connection go on (they used to end, and with them the
     * session's retry epoch and leases), and a state-changing call can be sent again with its
     * requestKey, which never runs it twice.
     */
    public JsonNode call(Session session, String tool, JsonNode arguments) {
        try {
            session.requireAlive();
            episodes.touch(session.id());
            String name = tool == null ? "" : tool;
            ToolSpec<?> spec = handlers.spec(name)
                    .orElseThrow(() -> new LomiException(
                            ErrorCode.INVALID_ARGUMENT,
                            "unknown tool '" + name + "'; call one of the tools the helper lists (tools/list)"));
            if (!session.grant().allows(spec.scope())) {
                throw new LomiException(
                        ErrorCode.SCOPE_DENIED,
                        dev.lomicontrol.core.ErrorMessages.missingScope(
                                name, spec.scope().name()));
            }
            Binder.requireArgumentSize(name, arguments == null ? 0 : SIZE.writeValueAsBytes(arguments).length);
            return withLedgerWarning(Envelope.ok(Encoder.encode(handlers.call(session, name, arguments))));
        } catch (LomiException e) {
            return withLedgerWarning(Envelope.error(e.code(), e.getMessage()));
        } catch (RuntimeException e) {
            log.error("session {}: {} failed unexpectedly; answered OUTCOME_UNKNOWN", session.id(), tool, e);
            return withLedgerWarning(Envelope.error(
                    ErrorCode.OUTCOME_UNKNOWN,
                    "the broker failed unexpectedly while handling " + tool + " ("
                            + e.getClass().getSimpleName()
                            + "); its outcome is unknown. A call that changes state: send it again with the same"
                            + " retryEpoch and requestKey, which answers the operation it made, if any, and never"
                            + " runs it twice"));
        }
    }

    /** From 80 % of a ledger cap every answer carries {@code ledgerWarning}; the helper's lomi_status repeats the last one seen. */
    private JsonNode withLedgerWarning(tools.jackson.databind.node.ObjectNode envelope) {
        ledger.headroom().agentWarning().ifPresent(warning -> envelope.put("ledgerWarning", warning));
        return envelope;
    }

    /** The session's connection is gone: its retry epoch is forgotten, its leases and pending decisions end, its episode detaches. */
    public void sessionEnded(Session session) {
        access.sessionEnded(session);
        runner.sessionEnded(session.id());
        features.forEach(feature -> feature.sessionEnded(session));
        episodes.sessionEnded(session.id());
    }

    /** The host calls are checked against, as probed now. */
    public dev.lomicontrol.tools.HostProbe host() {
        return handlers.host();
    }

    /** Calls waiting right now ({@code waitMs}); each holds its own connection's thread, none holds another. */
    public int waitingCalls() {
        return waits.waiting();
    }
}
