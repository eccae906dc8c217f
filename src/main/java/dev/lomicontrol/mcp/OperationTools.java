package dev.lomicontrol.mcp;

import static dev.lomicontrol.mcp.Schemas.anyValue;
import static dev.lomicontrol.mcp.Schemas.arrayOf;
import static dev.lomicontrol.mcp.Schemas.bool;
import static dev.lomicontrol.mcp.Schemas.constant;
import static dev.lomicontrol.mcp.Schemas.hex40;
import static dev.lomicontrol.mcp.Schemas.integer;
import static dev.lomicontrol.mcp.Schemas.nullable;
import static dev.lomicontrol.mcp.Schemas.object;
import static dev.lomicontrol.mcp.Schemas.oneOfStrings;
import static dev.lomicontrol.mcp.Schemas.string;
import static dev.lomicontrol.mcp.Schemas.token;

import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/** Operation tools (SPEC §6, §9): read a receipt by id or key, cancel, and the durable event feed. */
final class OperationTools {

    static final String GET = "lomi_operation_get";
    static final String CANCEL = "lomi_operation_cancel";
    static final String EVENTS = "lomi_events_read";

    static final String[] STATES = {"queued", "awaiting_user", "running", "cancelling", "succeeded", "failed", "cancelled", "outcome_unknown"};
    static final String[] EFFECT_STATES = {"none", "partial", "complete", "unknown"};

    private OperationTools() {}

    static List<ToolDefinition> all() {
        return List.of(get(), cancel(), events());
    }

    /** The {@code data} of every durable operation result: {@code {kind:"operation", operationId, state, effectState, result?}}. */
    static ObjectNode operation() {
        return object().property("kind", constant("operation")).property("operationId", hex40("the durable operation id"))
                .property("tool", string("the tool that created it")).property("workspaceId", nullable(token("its workspace")))
                .property("state", oneOfStrings("the operation's state", STATES))
                .property("effectState", oneOfStrings("how much of the effect happened; 'unknown' means it may have run", EFFECT_STATES))
                .property("result", anyValue("the typed result, once there is one"))
                .property("errorCode", nullable(string("why a failed operation failed")))
                .require("kind", "operationId", "state", "effectState").build();
    }

    private static ToolDefinition get() {
        ObjectNode input = object().property("operationId", hex40("read by id"))
                .property("retryEpoch", hex40("read by key: the retryEpoch the request was sent with"))
                .property("requestKey", token("read by key: the requestKey the request was sent with"))
                .property("tool", token("read by key: the tool the request was sent to"))
                .property("projectId", token("read by key: the project, needed when the connection has more than one"))
                .closed().build();
        ObjectNode byId = object().property("operationId", McpJson.object()).require("operationId").closed()
                .description("{operationId}").build();
        ObjectNode byKey = object().property("retryEpoch", McpJson.object()).property("requestKey", McpJson.object())
                .property("tool", McpJson.object()).property("projectId", McpJson.object()).require("retryEpoch", "requestKey", "tool").closed()
                .description("{retryEpoch, requestKey, tool, projectId?}").build();
        ObjectNode exactlyOne = McpJson.object();
        exactlyOne.putArray("oneOf").add(byId).add(byKey);
        return ToolDefinition.broker(GET, "Read an operation",
                "Reads one durable operation this connection owns, either {operationId} or {retryEpoch, requestKey, tool, projectId?} - "
                        + "exactly one of the two forms. Use the key form with the original values after a lost or unknown answer.",
                Effect.RO, null, input, operation()).withConstraint(exactlyOne);
    }

    private static ToolDefinition cancel() {
        ObjectNode input = object().property("operationId", hex40("the operation to cancel")).require("operationId").closed().build();
        return ToolDefinition.broker(CANCEL, "Cancel an operation",
                "queued/awaiting_user becomes cancelled; running becomes cancelling with a native stop request (a terminal gets one Ctrl+C). "
                        + "Never undoes an effect; a finished operation is returned unchanged.",
                Effect.MUT, null, input, operation());
    }

    private static ToolDefinition events() {
        ObjectNode input = object().property("workspaceId", token("the workspace whose feed to read"))
                .property("limit", integer(1, 500, "page size (default 100)"))
                .property("cursor", Schemas.string(1, 1024, null, "nextCursor of the previous page")).require("workspaceId").closed().build();
        ObjectNode event = object().property("sequence", integer("position in the feed")).property("kind", string("'operation_state'"))
                .property("operationId", hex40("the operation")).property("tool", string("its tool"))
                .property("state", oneOfStrings("the state it entered", STATES)).property("effectState", oneOfStrings("its effect", EFFECT_STATES))
                .property("timestampSeconds", integer("when (Unix seconds)"))
                .require("sequence", "operationId", "state", "effectState").build();
        ObjectNode data = object().property("kind", constant("events")).property("workspaceId", token("the workspace"))
                .property("events", arrayOf(event, "operation state changes, oldest first"))
                .property("nextCursor", nullable(string("where to continue; keep reading after an empty page")))
                .property("hasMore", bool("whether more events are available now")).property("gap", bool("whether events were skipped"))
                .require("kind", "events", "hasMore").build();
        return ToolDefinition.broker(EVENTS, "Read operation events",
                "The durable feed of operation state changes in one workspace, paged by cursor. Contains no terminal text.",
                Effect.RO, "workspace.read", input, data);
    }
}
