package dev.lomicontrol.mcp;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.ipc.CallAnswer;
import dev.lomicontrol.ipc.Envelope;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Encodes a Control API envelope as an MCP CallToolResult (SPEC §4): a text block carrying the
 * envelope's JSON, the envelope itself as {@code structuredContent} (from 2025-06-18 on), and
 * {@code isError} exactly when the envelope's status is "error". A broker's answer is encoded from
 * the bytes the broker wrote ({@link RawJson}); an envelope the helper made, from its tree.
 */
final class CallResults {

    private CallResults() {}

    static ObjectNode of(JsonNode envelope, ProtocolVersion version) {
        Optional<String> png = withoutImage(envelope);
        return result(
                JsonNodeFactory.instance.stringNode(McpJson.string(envelope)),
                envelope,
                Envelope.isOk(envelope),
                png,
                version);
    }

    /** A broker's one-line envelope without an image ({@link CallAnswer#isOneLine()}), passed on as it was sent. */
    static ObjectNode of(CallAnswer answer, ProtocolVersion version) {
        return result(RawJson.text(answer), RawJson.value(answer), answer.isOk(), Optional.empty(), version);
    }

    private static ObjectNode result(
            JsonNode text, JsonNode envelope, boolean ok, Optional<String> png, ProtocolVersion version) {
        ObjectNode result = McpJson.object();
        ArrayNode content = result.putArray("content");
        ObjectNode block = content.addObject();
        block.put("type", "text");
        block.set("text", text);
        png.ifPresent(data ->
                content.addObject().put("type", "image").put("data", data).put("mimeType", "image/png"));
        if (version.hasStructuredOutput()) {
            result.set("structuredContent", envelope);
        }
        result.put("isError", !ok);
        return result;
    }

    /**
     * Removes the broker's private PNG field ({@link dev.lomicontrol.tools.ImageBlock#FIELD}) from the envelope's data and
     * answers it: a screenshot or an image artifact read then becomes a standard image block.
     */
    static Optional<String> withoutImage(JsonNode envelope) {
        JsonNode data = envelope.path("data");
        if (data instanceof ObjectNode object && object.has(dev.lomicontrol.tools.ImageBlock.FIELD)) {
            JsonNode png = object.remove(dev.lomicontrol.tools.ImageBlock.FIELD);
            return png.isString() ? Optional.of(png.asString()) : Optional.empty();
        }
        return Optional.empty();
    }

    static ObjectNode ok(JsonNode data, ProtocolVersion version) {
        return of(Envelope.ok(data), version);
    }

    static ObjectNode error(ErrorCode code, String message, ProtocolVersion version) {
        return of(Envelope.error(code, message), version);
    }
}
