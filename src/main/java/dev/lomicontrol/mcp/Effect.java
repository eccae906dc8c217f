package dev.lomicontrol.mcp;

import tools.jackson.databind.node.ObjectNode;

/**
 * What a tool may do (SPEC §9), the single source of its MCP annotations and of the bridge's
 * resend rule. RO reads; OP creates a durable operation keyed by {@code requestKey} (a repeat
 * returns the earlier operation, so it is idempotent); MUT changes state without a receipt.
 */
enum Effect {
    RO,
    OP,
    MUT;

    /** Only a read-only call may be sent again after an answer was lost (bridge rule, SPEC §7). */
    boolean mayResendAfterLostAnswer() {
        return this == RO;
    }

    /** MCP tool annotations: hints for the client, never consent (they are untrusted by design). */
    ObjectNode annotations(String title) {
        ObjectNode annotations = McpJson.object();
        annotations.put("title", title);
        annotations.put("readOnlyHint", this == RO);
        annotations.put("destructiveHint", this != RO);
        annotations.put("idempotentHint", this == RO || this == OP);
        annotations.put("openWorldHint", false);
        return annotations;
    }
}
