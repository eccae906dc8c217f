package dev.lomicontrol.broker;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.ledger.CancelResult;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerEvent;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.pairing.Session;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code lomi_operation_get}, {@code lomi_operation_cancel} and {@code lomi_events_read}. A receipt
 * is visible only to the session that owns it: another session's receipt gets the same
 * TARGET_NOT_FOUND as an unknown one.
 */
final class OperationCalls {

    static final int DEFAULT_EVENTS = 100;
    static final int MAX_EVENTS = 500;
    private static final String KEY_VARIANT = "{retryEpoch, requestKey, tool[, projectId]}";
    private static final Pattern SEQUENCE = Pattern.compile("[0-9]{1,18}");
    private static final Logger log = LoggerFactory.getLogger(OperationCalls.class);

    private final Ledger ledger;
    private final WorkspaceCalls workspaces;
    private final NativeStop nativeStop;
    private final java.util.function.Consumer<OperationId> cancelledBeforeDispatch;

    OperationCalls(Ledger ledger, WorkspaceCalls workspaces, NativeStop nativeStop, java.util.function.Consumer<OperationId> cancelledBeforeDispatch) {
        this.ledger = ledger;
        this.workspaces = workspaces;
        this.nativeStop = nativeStop;
        this.cancelledBeforeDispatch = cancelledBeforeDispatch;
    }

    /** Exactly one variant: {@code {operationId}} or the receipt key. */
    ObjectNode get(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "operationId", "retryEpoch", "requestKey", "tool", "projectId");
        boolean byId = args.has("operationId");
        boolean byKey = args.has("retryEpoch") || args.has("requestKey") || args.has("tool") || args.has("projectId");
        if (byId == byKey) {
            throw Arguments.invalid("pass exactly one variant: {operationId} or " + KEY_VARIANT);
        }
        Optional<Operation> found;
        if (byId) {
            found = ledger.get(session.id(), new OperationId(args.requiredString("operationId")));
        } else {
            found = ledger.getByKey(session.id(), new RetryEpochId(keyPart(args, "retryEpoch")), new ToolName(keyPart(args, "tool")),
                    new RequestKey(keyPart(args, "requestKey")), args.optionalString("projectId").map(ProjectId::new));
        }
        return OperationJson.of(found.orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no such operation of this session")));
    }

    /** Cancels without undoing anything; running work gets a native stop request through {@link NativeStop}. */
    ObjectNode cancel(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "operationId");
        CancelResult result = ledger.cancel(session.id(), new OperationId(args.requiredString("operationId")));
        boolean stopRequested = result instanceof CancelResult.StopRequested;
        if (result instanceof CancelResult.Cancelled) {
            cancelledBeforeDispatch.accept(result.operation().id());
        }
        ObjectNode data = OperationJson.of(result.operation());
        data.put("cancel", cancelWord(result));
        data.put("stopRequested", stopRequested);
        data.put("stopDelivered", stopRequested && deliverStop(result.operation()));
        return data;
    }

    /**
     * The durable state feed of one granted workspace after the cursor (the last sequence seen;
     * absent = from the start). {@code limit} 1..500, default 100 as the published catalog says.
     * After an empty page {@code nextCursor} is the cursor sent, so a client keeps polling with it.
     */
    ObjectNode events(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId", "limit", "cursor");
        WorkspaceId workspace = workspaces.resolve(session, new WorkspaceId(args.requiredString("workspaceId"))).workspace().id();
        int limit = args.integer("limit", 1, MAX_EVENTS, OptionalInt.of(DEFAULT_EVENTS));
        long after = args.optionalString("cursor").map(OperationCalls::sequenceOf).orElse(0L);
        List<LedgerEvent> read = ledger.events(Optional.of(workspace.value()), after, limit + 1);
        List<LedgerEvent> page = read.subList(0, Math.min(limit, read.size()));
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("kind", "events");
        data.put("workspaceId", workspace.value());
        ArrayNode events = data.putArray("events");
        page.forEach(event -> events.add(OperationJson.event(event)));
        data.put("nextCursor", Long.toString(page.isEmpty() ? after : page.get(page.size() - 1).sequence()));
        data.put("hasMore", read.size() > limit);
        data.put("gap", false);
        return data;
    }

    private static String keyPart(Arguments args, String name) {
        return args.optionalString(name).orElseThrow(() -> Arguments.invalid("the key variant " + KEY_VARIANT + " needs " + name));
    }

    private static long sequenceOf(String cursor) {
        if (!SEQUENCE.matcher(cursor).matches()) {
            throw Arguments.invalid("cursor must be the decimal sequence from an earlier nextCursor");
        }
        return Long.parseLong(cursor);
    }

    private static String cancelWord(CancelResult result) {
        if (result instanceof CancelResult.Cancelled) {
            return "cancelled";
        }
        if (result instanceof CancelResult.StopRequested) {
            return "stop_requested";
        }
        if (result instanceof CancelResult.Unchanged) {
            return "unchanged";
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
}
