package dev.lomicontrol.tools;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A durable operation as every OP tool, {@code lomi_operation_get} and {@code lomi_operation_cancel}
 * answer it (SPEC §6). {@code result} is the tool's typed result once there is one; a failure is
 * {@code {kind:"failure", code, message, detail}} (detail: what a failed operation left behind,
 * e.g. a pull stopped on conflicts), as the reference reports it; {@code errorCode} repeats the code.
 */
@Tag("operation")
public record OperationView(
        OperationId operationId,
        @Doc("the tool that created it") String tool,
        ProjectId projectId,
        RequestKey requestKey,

        @Doc(
                "queued, awaiting_user (the admin decides), running, cancelling, succeeded, failed, cancelled or outcome_unknown")
        State state,

        @Doc("none, partial, complete or unknown: what is known of the effect")
        EffectKind effectState,

        @Doc("the workspace it acted in") Optional<String> workspaceId,
        @Doc("the typed result, once there is one") Optional<JsonNode> result,

        @Doc("the error code of a failed, cancelled or unknown outcome")
        Optional<String> errorCode,

        @Doc("ISO-8601 UTC") String createdAt,
        @Doc("ISO-8601 UTC") String updatedAt,
        @Doc("ISO-8601 UTC, once settled") Optional<String> completedAt,

        @Doc("the admin's recorded finding for an outcome_unknown operation")
        Optional<Resolution> resolution) {

    public enum State {
        QUEUED,
        AWAITING_USER,
        RUNNING,
        CANCELLING,
        SUCCEEDED,
        FAILED,
        CANCELLED,
        OUTCOME_UNKNOWN
    }

    public enum EffectKind {
        NONE,
        PARTIAL,
        COMPLETE,
        UNKNOWN
    }

    public record Resolution(
            @Doc("succeeded, failed or cancelled") String finding, String note, String at) {}

    /** The result of an operation that failed: the reference's {@code {kind:"failure", code}}. */
    @Tag("failure")
    public record Failure(
            @Doc("the error code") String code,
            @Doc("what went wrong, when known") Optional<String> message,

            @Doc("the tool's own result describing what the failed operation left behind, if any")
            Optional<JsonNode> detail) {}

    /** Narrows the published {@code result} of an operation schema to {@code type}'s kinds, a failure, or null. */
    static void typeResult(ObjectNode operationSchema, java.util.List<Class<?>> types) {
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        result.put(
                "description",
                "the typed result, once there is one; {kind:\"failure\", code, …} when the operation failed");
        ArrayNode kinds = result.putArray("anyOf");
        java.util.Set<JsonNode> seen = new java.util.HashSet<>();
        for (Class<?> type : types) {
            ObjectNode own = SchemaWriter.output(type);
            for (JsonNode kind : own.has("anyOf") && !own.has("type")
                    ? own.get("anyOf")
                    : JsonNodeFactory.instance.arrayNode().add(own)) {
                if (seen.add(kind)) {
                    kinds.add(kind);
                }
            }
        }
        kinds.add(SchemaWriter.output(Failure.class));
        kinds.add(JsonNodeFactory.instance.objectNode().put("type", "null"));
        ((ObjectNode) operationSchema.get("properties")).set("result", result);
    }
}
