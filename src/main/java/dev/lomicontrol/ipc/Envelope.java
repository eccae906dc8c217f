package dev.lomicontrol.ipc;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.ErrorMessages;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The Control API 1.0 result envelope (SPEC §4): {@code ok} with data, or {@code error} with code and message. */
public final class Envelope {

    public static final String CONTROL_API_VERSION = "1.0";

    private Envelope() {}

    public static ObjectNode ok(JsonNode data) {
        ObjectNode envelope = JsonNodeFactory.instance.objectNode();
        envelope.put("controlApiVersion", CONTROL_API_VERSION);
        envelope.put("status", "ok");
        envelope.set("data", data);
        return envelope;
    }

    /** The error envelope; its message is never null or blank ({@link ErrorMessages#of}: it fails a strict run). */
    public static ObjectNode error(ErrorCode code, String message) {
        ObjectNode envelope = JsonNodeFactory.instance.objectNode();
        envelope.put("controlApiVersion", CONTROL_API_VERSION);
        envelope.put("status", "error");
        envelope.put("code", code.name());
        envelope.put("message", ErrorMessages.of(code, message));
        return envelope;
    }

    public static boolean isOk(JsonNode envelope) {
        return "ok".equals(envelope.path("status").asString(""));
    }
}
