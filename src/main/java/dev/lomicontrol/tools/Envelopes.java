package dev.lomicontrol.tools;

import dev.lomicontrol.core.ErrorCode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The published schema of the Control API 1.0 envelope (SPEC §4) around a tool's data. */
final class Envelopes {

    static final String CONTROL_API_VERSION = "1.0";

    private Envelopes() {}

    /** {@code {controlApiVersion:"1.0", status:"ok", data}} or {@code {controlApiVersion:"1.0", status:"error", code, message}}. */
    static ObjectNode schema(ObjectNode data) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode ok = json.objectNode().put("type", "object");
        ObjectNode okProperties = ok.putObject("properties");
        okProperties.set("controlApiVersion", constant(CONTROL_API_VERSION));
        okProperties.set("status", constant("ok"));
        okProperties.set("data", data);
        ok.putArray("required").add("controlApiVersion").add("status").add("data");
        ObjectNode error = json.objectNode().put("type", "object");
        ObjectNode errorProperties = error.putObject("properties");
        errorProperties.set("controlApiVersion", constant(CONTROL_API_VERSION));
        errorProperties.set("status", constant("error"));
        ObjectNode code = errorProperties
                .putObject("code")
                .put("type", "string")
                .put("description", "a stable Control API error code");
        ArrayNode codes = code.putArray("enum");
        for (ErrorCode each : ErrorCode.values()) {
            codes.add(each.name());
        }
        errorProperties
                .putObject("message")
                .put("type", "string")
                .put("description", "what went wrong, for a human or a model");
        error.putArray("required")
                .add("controlApiVersion")
                .add("status")
                .add("code")
                .add("message");
        ObjectNode root = json.objectNode().put("type", "object");
        root.putArray("oneOf").add(ok).add(error);
        return root;
    }

    private static ObjectNode constant(String value) {
        return JsonNodeFactory.instance.objectNode().put("type", "string").put("const", value);
    }
}
