package dev.lomicontrol.mcp;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.ipc.CallAnswer;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code tools/call}: which failures are protocol errors and which are tool results.
 *
 * <table>
 * <caption>How a call fails</caption>
 * <tr><th>failure</th><th>answer</th></tr>
 * <tr><td>params.name missing or not a string; params.arguments not an object</td><td>JSON-RPC -32602</td></tr>
 * <tr><td>a declared tool outside the helper's {@code --toolsets}/{@code --read-only}</td><td>isError, UNSUPPORTED_CAPABILITY naming the option that enables it</td></tr>
 * <tr><td>unknown tool name</td><td>JSON-RPC -32602 ("Unknown tool: …")</td></tr>
 * <tr><td>arguments over 64 KiB serialized (checked before anything else looks at them)</td><td>isError, PAYLOAD_TOO_LARGE</td></tr>
 * <tr><td>schema violation, unknown field, not exactly one variant of a union</td><td>isError, INVALID_ARGUMENT naming the field</td></tr>
 * <tr><td>broker tool before pairing</td><td>isError, PAIRING_REQUIRED or APP_UNAVAILABLE</td></tr>
 * <tr><td>refusal by the broker</td><td>isError with the broker's code</td></tr>
 * <tr><td>call frame over the 8 MiB frame limit</td><td>isError, PAYLOAD_TOO_LARGE (never sent, no reconnect)</td></tr>
 * <tr><td>not sent / a read that got no answer</td><td>isError, APP_UNAVAILABLE or DEADLINE_EXCEEDED</td></tr>
 * <tr><td>sent, no answer, not read-only</td><td>JSON-RPC -32603 "outcome unknown: …", data {requestId, outcome:"unknown"}</td></tr>
 * </table>
 *
 * <p>Argument faults are results, not protocol errors (MCP 2025-11-25, SEP-1303), so the model
 * sees the message and can correct itself; envelope faults are protocol errors. An unknown
 * outcome is a protocol error on purpose: no result can truthfully describe it, and the client
 * must not take it for a refusal.
 */
final class ToolCalls {

    static final int MAX_ARGUMENT_BYTES = dev.lomicontrol.tools.Binder.MAX_ARGUMENT_BYTES;

    /** What to do with a call: answer now, or forward it to the broker (off the reader thread). */
    sealed interface Plan permits Plan.Done, Plan.Forward {
        record Done(Reply reply) implements Plan {}

        record Forward(ToolDefinition tool, ObjectNode arguments) implements Plan {}
    }

    /**
     * Broker answers checked against the published output schema, per tool: the first {@value} of each
     * tool, then one in {@link #CHECK_EVERY}. The check is a canary for contract drift (the contract
     * tests check every result); a drift shows on the first answers, and checking every answer cost
     * about a tenth of the helper's CPU per forwarded call.
     */
    static final int CHECK_FIRST = 8;

    static final int CHECK_EVERY = 64;

    private final Catalog catalog;
    private final StatusReport status;
    private final Bridge bridge;
    private final java.util.concurrent.ConcurrentHashMap<String, java.util.concurrent.atomic.AtomicLong> answers =
            new java.util.concurrent.ConcurrentHashMap<>();

    ToolCalls(Catalog catalog, StatusReport status, Bridge bridge) {
        this.catalog = catalog;
        this.status = status;
        this.bridge = bridge;
    }

    /** Checks the call in the order of the table above; cheap, never blocks. */
    Plan plan(ObjectNode params, ProtocolVersion version) {
        JsonNode name = params.get("name");
        JsonNode arguments = params.has("arguments") ? params.get("arguments") : McpJson.object();
        if (name == null || !name.isString()) {
            return failed(RpcError.INVALID_PARAMS, "Invalid params: tools/call needs params.name (a string)");
        }
        if (!arguments.isObject()) {
            return failed(RpcError.INVALID_PARAMS, "Invalid params: params.arguments must be an object");
        }
        Optional<ToolDefinition> found = catalog.find(name.asString());
        Optional<String> notServed = found.isEmpty() ? catalog.refusal(name.asString()) : Optional.empty();
        if (notServed.isPresent()) {
            return done(CallResults.error(ErrorCode.UNSUPPORTED_CAPABILITY, notServed.get(), version));
        }
        if (found.isEmpty()) {
            return failed(RpcError.INVALID_PARAMS, "Unknown tool: " + name.asString());
        }
        return plan(found.get(), (ObjectNode) arguments, version);
    }

    private Plan plan(ToolDefinition tool, ObjectNode arguments, ProtocolVersion version) {
        try {
            dev.lomicontrol.tools.Binder.requireArgumentSize(tool.name(), McpJson.serializedSize(arguments));
        } catch (dev.lomicontrol.core.LomiException tooLarge) {
            return done(CallResults.error(tooLarge.code(), tooLarge.getMessage(), version));
        }
        Optional<String> violation = violation(tool, arguments);
        if (violation.isPresent()) {
            return done(CallResults.error(
                    ErrorCode.INVALID_ARGUMENT,
                    "invalid arguments for " + tool.name() + ": " + violation.get(),
                    version));
        }
        // No host check here: the broker runs Chromium, adb, the emulator and the SDK, so its dispatch
        // decides HOST_UNQUALIFIED with its own probe; this helper's environment (often a client's
        // minimal one, without ANDROID_HOME) says nothing about what the broker can do.
        if (tool.answeredBy() == ToolDefinition.AnsweredBy.HELPER) {
            return done(CallResults.ok(
                    tool.name().equals(dev.lomicontrol.session.api.SessionSpecs.STATUS.name())
                            ? status.status()
                            : status.diagnostics(),
                    version));
        }
        return new Plan.Forward(tool, arguments);
    }

    /** Forwards a planned call and encodes what became of it; blocks up to the call timeout. */
    Reply forward(JsonNode requestId, Plan.Forward call, ProtocolVersion version) {
        Bridge.Forwarded outcome;
        try {
            outcome = bridge.forward(call.tool(), call.arguments());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome = new Bridge.Forwarded.OutcomeUnknown("the helper stopped while waiting");
        }
        if (outcome instanceof Bridge.Forwarded.Answered) {
            CallAnswer answer = ((Bridge.Forwarded.Answered) outcome).answer();
            status.observe(answer.ledgerWarning());
            return answered(call.tool(), answer, version);
        }
        if (outcome instanceof Bridge.Forwarded.Refused) {
            Bridge.Forwarded.Refused refused = (Bridge.Forwarded.Refused) outcome;
            return Reply.success(CallResults.error(refused.code(), refused.message(), version));
        }
        if (outcome instanceof Bridge.Forwarded.OutcomeUnknown) {
            return new Reply.Failure(
                    outcomeUnknown(requestId, call.tool().name(), ((Bridge.Forwarded.OutcomeUnknown) outcome).cause()));
        }
        throw new IllegalStateException("unknown forwarding outcome " + outcome);
    }

    /**
     * The broker's envelope as the result: passed on as the bytes the broker wrote, or — when its data carries an
     * image for an image block — rebuilt from a tree. A sampled answer is checked against the published output
     * schema and a mismatch reported on stderr (the contract drifted).
     */
    private Reply answered(ToolDefinition tool, CallAnswer answer, ProtocolVersion version) {
        if (shouldCheck(answers.computeIfAbsent(tool.name(), name -> new java.util.concurrent.atomic.AtomicLong())
                .getAndIncrement())) {
            JsonNode envelope = answer.envelope();
            CallResults.withoutImage(envelope);
            SchemaValidator.firstViolation(tool.outputSchema(), envelope, "result")
                    .ifPresent(problem -> Diagnostics.warn(
                            tool.name() + ": the broker's answer does not match the output schema: " + problem));
        }
        if (answer.isOneLine() && !answer.dataHas(dev.lomicontrol.tools.ImageBlock.FIELD)) {
            return Reply.success(CallResults.of(answer, version));
        }
        return Reply.success(CallResults.of(answer.envelope(), version));
    }

    /** Whether the {@code n}-th answer (from 0) of a tool is checked against its output schema. */
    static boolean shouldCheck(long n) {
        return n < CHECK_FIRST || n % CHECK_EVERY == 0;
    }

    /** The seed-004 error: -32603, message starting "outcome unknown:" and naming the request id, data {requestId, outcome}. */
    static RpcError outcomeUnknown(JsonNode requestId, String tool, String cause) {
        ObjectNode data = McpJson.object();
        data.set("requestId", requestId);
        data.put("outcome", "unknown");
        return new RpcError(
                RpcError.INTERNAL_ERROR,
                "outcome unknown: request " + requestId + " (" + tool + ") was sent to the broker and no answer "
                        + "came (" + cause
                        + "); it may have run, so it was not sent again. Read it back with lomi_operation_get by key, if it was a "
                        + "durable operation, before deciding anything.",
                data);
    }

    /** The first reason the helper refuses these arguments (the declaration's binding, or for an undeclared tool its schemas); empty when valid. */
    static Optional<String> violation(ToolDefinition tool, JsonNode arguments) {
        try {
            tool.spec().bind(arguments);
            return Optional.empty();
        } catch (dev.lomicontrol.core.LomiException refused) {
            return Optional.of(refused.getMessage());
        }
    }

    private static Plan done(ObjectNode result) {
        return new Plan.Done(Reply.success(result));
    }

    private static Plan failed(int code, String message) {
        return new Plan.Done(Reply.failure(code, message));
    }
}
