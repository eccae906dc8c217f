package dev.lomicontrol.broker;

import dev.lomicontrol.ledger.LedgerEvent;
import dev.lomicontrol.ledger.Operation;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The wire form of operations and feed events (camelCase, ISO-8601 UTC times, optional fields omitted). */
final class OperationJson {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private OperationJson() {}

    /** {@code {kind:"operation", operationId, tool, projectId, requestKey, state, effectState, workspaceId?, result?, errorCode?, …}}. */
    static ObjectNode of(Operation operation) {
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("kind", "operation");
        data.put("operationId", operation.id().value());
        data.put("tool", operation.tool().value());
        data.put("projectId", operation.project().value());
        data.put("requestKey", operation.requestKey().value());
        data.put("state", operation.state().wire());
        data.put("effectState", operation.effect().wire());
        operation.workspaceId().ifPresent(w -> data.put("workspaceId", w));
        operation.result().ifPresent(r -> data.set("result", parsed(r)));
        operation.errorCode().ifPresent(e -> data.put("errorCode", e));
        data.put("createdAt", operation.createdAt().toString());
        data.put("updatedAt", operation.updatedAt().toString());
        operation.completedAt().ifPresent(t -> data.put("completedAt", t.toString()));
        operation.resolution().ifPresent(r -> {
            ObjectNode resolution = data.putObject("resolution");
            resolution.put("finding", r.finding().wire());
            resolution.put("note", r.note());
            resolution.put("at", r.at().toString());
        });
        return data;
    }

    /**
     * Every history row is an {@code operation_state} event (an admin reconciliation repeats the
     * unchanged state). The time is given as ISO-8601 and, as the reference names it, Unix seconds.
     */
    static ObjectNode event(LedgerEvent event) {
        ObjectNode item = JsonNodeFactory.instance.objectNode();
        item.put("sequence", event.sequence());
        item.put("kind", "operation_state");
        item.put("operationId", event.operationId().value());
        item.put("tool", event.tool());
        item.put("state", event.state().wire());
        item.put("effectState", event.effect().wire());
        item.put("timestamp", event.at().toString());
        item.put("timestampSeconds", event.at().getEpochSecond());
        return item;
    }

    /** The stored result is canonical JSON text; should it ever not parse, it is passed on as a string. */
    private static JsonNode parsed(String result) {
        try {
            return MAPPER.readTree(result);
        } catch (JacksonException e) {
            return JsonNodeFactory.instance.stringNode(result);
        }
    }
}
