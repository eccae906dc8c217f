package dev.lomicontrol.proof.crash;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;

/**
 * What one {@code tools/call} came back with, seen as a client: an ok envelope's {@code data}, an
 * error envelope's code, or the helper's JSON-RPC "outcome unknown" (a mutating call that was sent
 * and got no answer). Any other JSON-RPC error is a broken contract and fails the suite.
 */
record Answer(boolean ok, boolean outcomeUnknown, String code, JsonNode data) {

    static final String NEVER_SENT_APP_UNAVAILABLE = "APP_UNAVAILABLE";
    static final String NEVER_SENT_DEADLINE = "DEADLINE_EXCEEDED";
    static final String NEVER_SENT_PAIRING = "PAIRING_REQUIRED";

    static Answer of(String tool, JsonNode response) {
        JsonNode error = response.path("error");
        if (!error.isMissingNode()) {
            if (error.path("data").path("outcome").asString("").equals("unknown")) {
                return new Answer(false, true, "OUTCOME_UNKNOWN", MissingNode.getInstance());
            }
            throw new AssertionError(tool + ": unexpected JSON-RPC error " + response);
        }
        JsonNode envelope = response.path("result").path("structuredContent");
        if (envelope.path("status").asString("").equals("ok")) {
            return new Answer(true, false, "", envelope.path("data"));
        }
        if (envelope.path("status").asString("").equals("error")) {
            return new Answer(false, false, envelope.path("code").asString(""), envelope);
        }
        throw new AssertionError(tool + ": not a Control API envelope: " + response);
    }

    /**
     * The helper's own words for "this call was not sent" (MCP.md, seed 004): no connection (yet), or
     * the call timeout passed before sending. The judge checks that such calls left no receipt.
     */
    boolean neverSent() {
        return !ok
                && (code.equals(NEVER_SENT_APP_UNAVAILABLE)
                        || code.equals(NEVER_SENT_DEADLINE)
                        || code.equals(NEVER_SENT_PAIRING));
    }

    /** An operation envelope ({@code kind:"operation"}). */
    boolean isOperation() {
        return ok && data.path("kind").asString("").equals("operation");
    }

    String operationId() {
        return data.path("operationId").asString("");
    }

    String state() {
        return data.path("state").asString("");
    }

    boolean settled() {
        return isOperation()
                && java.util.List.of("succeeded", "failed", "cancelled", "outcome_unknown")
                        .contains(state());
    }

    /** A short word for reports: the state, the error code or OUTCOME_UNKNOWN. */
    String word() {
        return ok ? (isOperation() ? "ok:" + state() : "ok") : code;
    }
}
