package dev.lomicontrol.operations;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.ledger.LedgerEvent;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.operations.api.OperationSpecs;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.OperationView;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The wire form of operations and feed events (camelCase, ISO-8601 UTC times, optional fields omitted). */
public final class OperationJson {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private OperationJson() {}

    /** {@code {kind:"operation", operationId, tool, projectId, requestKey, state, effectState, workspaceId, result, errorCode, …}}. */
    public static ObjectNode of(Operation operation) {
        return (ObjectNode) Encoder.encode(view(operation));
    }

    /**
     * The typed view of an operation: its stored result, or for an operation that ended with an
     * error code, the reference's {@code {kind:"failure", code, message, detail}} (message: never
     * null; detail: the stored result, if any).
     */
    public static OperationView view(Operation operation) {
        Optional<JsonNode> stored = operation.result().map(OperationJson::parsed);
        Optional<JsonNode> result = operation.errorCode().isPresent()
                ? Optional.of(Encoder.encode(new OperationView.Failure(
                        operation.errorCode().get(), Optional.of(message(operation)), stored)))
                : stored;
        return new OperationView(
                operation.id(),
                operation.tool().value(),
                operation.project(),
                operation.requestKey(),
                OperationView.State.valueOf(operation.state().name()),
                OperationView.EffectKind.valueOf(operation.effect().name()),
                operation.workspaceId(),
                result,
                operation.errorCode(),
                operation.createdAt().toString(),
                operation.updatedAt().toString(),
                operation.completedAt().map(Object::toString),
                operation
                        .resolution()
                        .map(r -> new OperationView.Resolution(r.finding().wire(), r.note(), r.at().toString())));
    }

    /**
     * What the failed operation's error says: the recorded message (checked when it was recorded, see
     * {@link dev.lomicontrol.ledger.OperationError}), or for a row settled before messages were
     * recorded, its code's generic next step.
     */
    private static String message(Operation operation) {
        return operation
                .errorMessage()
                .orElseGet(() -> legacyNextStep(operation.errorCode().orElse("")));
    }

    private static String legacyNextStep(String code) {
        for (ErrorCode each : ErrorCode.values()) {
            if (each.name().equals(code)) {
                return each.nextStep();
            }
        }
        return "the operation failed with " + code + "; check it with lomi_operation_get before sending it again";
    }

    /**
     * Every history row is an {@code operation_state} event (an admin reconciliation repeats the
     * unchanged state). The time is given as ISO-8601 and, as the reference names it, Unix seconds.
     */
    public static OperationSpecs.Event event(LedgerEvent event) {
        return new OperationSpecs.Event(
                event.sequence(),
                "operation_state",
                event.operationId(),
                event.tool(),
                OperationView.State.valueOf(event.state().name()),
                OperationView.EffectKind.valueOf(event.effect().name()),
                event.at().toString(),
                event.at().getEpochSecond());
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
