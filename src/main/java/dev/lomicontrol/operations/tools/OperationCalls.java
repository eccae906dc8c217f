package dev.lomicontrol.operations.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.ledger.CancelResult;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerEvent;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.operations.NativeStop;
import dev.lomicontrol.operations.OperationJson;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.OperationWaits;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.Waits;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.operations.api.OperationSpecs;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Decimal;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code lomi_operation_get}, {@code lomi_operation_cancel} and {@code lomi_events_read}. A receipt
 * is visible only to the session that owns it: another session's receipt gets the same
 * TARGET_NOT_FOUND as an unknown one.
 */
@Component
public final class OperationCalls implements ToolFeature {

    static final int DEFAULT_EVENTS = 100;
    static final int MAX_EVENTS = 500;
    private static final Logger log = LoggerFactory.getLogger(OperationCalls.class);

    private final Ledger ledger;
    private final WorkspaceAccess workspaces;
    /** Every feature's native stop: known once every feature is built, when this one registers. */
    private NativeStop nativeStop = NativeStop.NONE;

    private final OperationRunner runner;
    private final Waits waits;
    private final OperationWaits operationWaits;

    public OperationCalls(
            Ledger ledger,
            WorkspaceAccess workspaces,
            OperationRunner runner,
            Waits waits,
            OperationWaits operationWaits) {
        this.waits = waits;
        this.operationWaits = operationWaits;
        this.ledger = ledger;
        this.workspaces = workspaces;
        this.runner = runner;
    }

    /**
     * Exactly one form: {@code {operationId}} or the receipt key. With a wait, the answer comes once
     * the operation settles (or what its tool waits for holds) or the wait ends — read-only either way.
     */
    public ObjectNode get(Session session, OperationSpecs.Lookup lookup, java.time.Duration wait) {
        Optional<Operation> found;
        if (lookup instanceof OperationSpecs.ById byId) {
            found = ledger.get(session.id(), byId.operationId());
        } else {
            OperationSpecs.ByKey key = (OperationSpecs.ByKey) lookup;
            found = ledger.getByKey(
                    session.id(),
                    key.retryEpoch(),
                    new ToolName(key.tool().value()),
                    key.requestKey(),
                    key.projectId());
        }
        Operation operation = found.orElseThrow(() -> new LomiException(
                ErrorCode.TARGET_NOT_FOUND,
                "no operation with that id was made by this session; use an operationId"
                        + " this session was answered (an earlier connection's are not visible)"));
        return operationWaits.answer(session, operation, wait);
    }

    /** Cancels without undoing anything; running work gets a native stop request through {@link NativeStop}. */
    public OperationSpecs.Cancelled cancel(Session session, OperationSpecs.Cancel input) {
        CancelResult result = ledger.cancel(session.id(), input.operationId());
        boolean stopRequested = result instanceof CancelResult.StopRequested;
        if (result instanceof CancelResult.Cancelled) {
            runner.withdrawn(result.operation().id());
        }
        return new OperationSpecs.Cancelled(
                OperationJson.view(result.operation()),
                outcome(result),
                stopRequested,
                stopRequested && deliverStop(result.operation()));
    }

    /**
     * The durable state feed of one granted workspace after the cursor (the last sequence seen;
     * absent = from the start). After an empty page {@code nextCursor} is the cursor sent, so a
     * client keeps polling with it. With a wait, an empty page is answered only when no event came
     * within it (woken by the ledger's commit of a change in this workspace, not by polling).
     */
    public OperationSpecs.Events events(Session session, OperationSpecs.EventsRead input, java.time.Duration wait) {
        WorkspaceId workspace =
                workspaces.resolve(session, input.workspaceId()).workspace().id();
        long after = input.cursor().map(Decimal::asLong).orElse(0L);
        return waits.polling(
                session,
                wait,
                waiter -> waiter.workspace(workspace.value()),
                () -> {
                    List<LedgerEvent> read = ledger.events(Optional.of(workspace.value()), after, input.limit() + 1);
                    List<LedgerEvent> page = read.subList(0, Math.min(input.limit(), read.size()));
                    return new OperationSpecs.Events(
                            workspace,
                            page.stream().map(OperationJson::event).toList(),
                            Decimal.of(
                                    page.isEmpty()
                                            ? after
                                            : page.get(page.size() - 1).sequence()),
                            read.size() > input.limit(),
                            false);
                },
                events -> !events.events().isEmpty());
    }

    private static OperationSpecs.CancelOutcome outcome(CancelResult result) {
        if (result instanceof CancelResult.Cancelled) {
            return OperationSpecs.CancelOutcome.CANCELLED;
        }
        if (result instanceof CancelResult.StopRequested) {
            return OperationSpecs.CancelOutcome.STOP_REQUESTED;
        }
        if (result instanceof CancelResult.Unchanged) {
            return OperationSpecs.CancelOutcome.UNCHANGED;
        }
        throw new IllegalStateException("unknown cancel result " + result);
    }

    private boolean deliverStop(Operation operation) {
        try {
            return nativeStop.requestStop(operation);
        } catch (RuntimeException e) {
            log.warn("operation {}: the native stop request failed: {}", operation.id(), e.getMessage());
            return false;
        }
    }

    /** Registers the handlers of the tools this class serves. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        this.nativeStop = wiring.stops();
        handlers.onWaiting(OperationSpecs.GET, this::get);
        handlers.on(OperationSpecs.CANCEL, this::cancel);
        handlers.onWaiting(OperationSpecs.EVENTS, this::events);
    }
}
