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
        java.util.Optional<String> png = withoutImage(envelope);
        ObjectNode result = McpJson.object();
        tools.jackson.databind.node.ArrayNode content = result.putArray("content");
        ObjectNode text = content.addObject();
        text.put("type", "text");
        text.put("text", envelope.toString());
        png.ifPresent(data ->
                content.addObject().put("type", "image").put("data", data).put("mimeType", "image/png"));
        if (version.hasStructuredOutput()) {
            result.set("structuredContent", envelope);
        }
        result.put("isError", !Envelope.isOk(envelope));
        return result;
    }

    /**
     * Removes the broker's private PNG field ({@link dev.lomicontrol.tools.ImageBlock#FIELD}) from the envelope's data and
     * answers it: a screenshot or an image artifact read then becomes a standard image block.
     */
    static java.util.Optional<String> withoutImage(JsonNode envelope) {
        JsonNode data = envelope.path("data");
        if (data instanceof ObjectNode object && object.has(dev.lomicontrol.tools.ImageBlock.FIELD)) {
            JsonNode png = object.remove(dev.lomicontrol.tools.ImageBlock.FIELD);
            return png.isString() ? java.util.Optional.of(png.asString()) : java.util.Optional.empty();
        }
        return java.util.Optional.empty();
    }

    static ObjectNode ok(JsonNode data, ProtocolVersion version) {
        return of(Envelope.ok(data), version);
    }

    static ObjectNode error(ErrorCode code, String message, ProtocolVersion version) {
        return of(Envelope.error(code, message), version);
    }
}
