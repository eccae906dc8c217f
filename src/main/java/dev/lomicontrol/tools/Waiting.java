package dev.lomicontrol.tools;

import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code waitMs}, the one input field the framework declares for a tool instead of its input
 * record (issue 20): every OP tool and the reads that can wait for something ({@code
 * lomi_operation_get}, {@code lomi_terminal_read}, {@code lomi_events_read}) take it, optional,
 * 0–25,000 ms, {@code null} or absent = 0 = answer at once as before.
 *
 * <p>It is bound apart from the tool's record on purpose: waiting is read-only — it changes when the
 * answer is written, never what runs — so it is no part of the request's identity. The record (and
 * with it the receipt's fingerprint) never sees it, so a retry with another {@code waitMs} is the same
 * request and answers the same operation.
 */
public final class Waiting {

    /** The field's name in every waiting tool's arguments. */
    public static final String FIELD = "waitMs";

    /** The longest wait: below the helper's 30 s call timeout and the 60 s common clients allow. */
    public static final int MAX_MS = 25_000;

    /** The description an OP tool's {@code waitMs} is published with unless its declaration says more. */
    static final String OPERATION_DOC = "ms to wait for it to settle";

    private Waiting() {}

    /** The validated wait of these arguments: 0 when absent or null; INVALID_ARGUMENT naming {@code arguments.waitMs} otherwise. */
    public static Duration of(JsonNode arguments) {
        JsonNode value = arguments == null ? null : arguments.get(FIELD);
        if (value == null || value.isNull()) {
            return Duration.ZERO;
        }
        if (!value.isIntegralNumber()
                || !value.canConvertToLong()
                || value.longValue() < 0
                || value.longValue() > MAX_MS) {
            throw Binder.invalid(
                    "arguments." + FIELD,
                    "must be an integer from 0 to " + MAX_MS + " (milliseconds), got " + Binder.describe(value));
        }
        return Duration.ofMillis(value.longValue());
    }

    /** The arguments the tool's own record binds: {@code waitMs} removed (a copy when it was there). */
    static JsonNode without(JsonNode arguments) {
        if (arguments == null || !arguments.isObject() || !arguments.has(FIELD)) {
            return arguments;
        }
        ObjectNode copy = ((ObjectNode) arguments).deepCopy();
        copy.remove(FIELD);
        return copy;
    }

    /**
     * The same arguments with {@code waitMs} no longer than {@code longest} (a copy when it was
     * longer): the helper's bound, so a wait can never outlast the helper's own call timeout and turn
     * into an unknown outcome.
     */
    public static ObjectNode atMost(ObjectNode arguments, Duration longest) {
        JsonNode value = arguments.get(FIELD);
        long bound = Math.max(0, longest.toMillis());
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() <= bound) {
            return arguments;
        }
        ObjectNode copy = arguments.deepCopy();
        copy.put(FIELD, bound);
        return copy;
    }

    /** The published property: an integer 0..25000 or null (absent and null mean 0). */
    static ObjectNode schema(String description) {
        ObjectNode schema = JsonNodeFactory.instance.objectNode();
        schema.putArray("type").add("integer").add("null");
        schema.put("minimum", 0);
        schema.put("maximum", MAX_MS);
        schema.put("description", description);
        return schema;
    }
}
