package dev.lomicontrol.ipc;

import dev.lomicontrol.core.ErrorCode;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The Control API 1.0 result envelope (SPEC §4): {@code ok} with data, or {@code error} with code and message. */
public final class Envelope {

    public static final String CONTROL_API_VERSION = "1.0";

    /**
     * The private field of an answer's {@code data} that carries a PNG (base64) between the broker
     * and the helper; the helper removes it and sends the bytes as an MCP {@code image} block
     * ({@code image/png}), so it never appears in {@code structuredContent}.
     */
    public static final String IMAGE_PNG = "_imagePngBase64";

    private Envelope() {}

    public static ObjectNode ok(JsonNode data) {
        ObjectNode envelope = JsonNodeFactory.instance.objectNode();
        envelope.put("controlApiVersion", CONTROL_API_VERSION);
        envelope.put("status", "ok");
        envelope.set("data", data);
        return envelope;
    }

    public static ObjectNode error(ErrorCode code, String message) {
        ObjectNode envelope = JsonNodeFactory.instance.objectNode();
        envelope.put("controlApiVersion", CONTROL_API_VERSION);
        envelope.put("status", "error");
        envelope.put("code", code.name());
        envelope.put("message", message);
        return envelope;
    }

    public static boolean isOk(JsonNode envelope) {
        return "ok".equals(envelope.path("status").asString(""));
    }
}
