package dev.lomicontrol.mcp;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.ipc.Envelope;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Encodes a Control API envelope as an MCP CallToolResult (SPEC §4): a text block carrying the
 * envelope's JSON, the envelope itself as {@code structuredContent} (from 2025-06-18 on), and
 * {@code isError} exactly when the envelope's status is "error".
 */
final class CallResults {

    private CallResults() {}

    static ObjectNode of(JsonNode envelope, ProtocolVersion version) {
        ObjectNode result = McpJson.object();
        ObjectNode text = result.putArray("content").addObject();
        text.put("type", "text");
        text.put("text", envelope.toString());
        if (version.hasStructuredOutput()) {
            result.set("structuredContent", envelope);
        }
        result.put("isError", !Envelope.isOk(envelope));
        return result;
    }

    static ObjectNode ok(JsonNode data, ProtocolVersion version) {
        return of(Envelope.ok(data), version);
    }

    static ObjectNode error(ErrorCode code, String message, ProtocolVersion version) {
        return of(Envelope.error(code, message), version);
    }
}
