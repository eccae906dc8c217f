package dev.lomicontrol.mcp;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.ipc.Envelope;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builders for the JSON Schema subset the catalog uses (exactly what {@link SchemaValidator}
 * understands). Input objects are closed ({@code additionalProperties:false}); output objects stay
 * open so that wire types can grow append-only without breaking clients that validate results.
 */
final class Schemas {

    static final String TOKEN_PATTERN = "^[A-Za-z0-9._:-]+$";
    static final String HEX40_PATTERN = "^[0-9a-f]{40}$";
    static final String DECIMAL_PATTERN = "^(0|[1-9][0-9]*)$";

    private Schemas() {}

    static ObjectNode string(String description) {
        return described(typed("string"), description);
    }

    static ObjectNode string(int minLength, int maxLength, String pattern, String description) {
        ObjectNode schema = string(description);
        schema.put("minLength", minLength);
        schema.put("maxLength", maxLength);
        if (pattern != null) {
            schema.put("pattern", pattern);
        }
        return schema;
    }

    /** 1-128 characters of {@code [A-Za-z0-9._:-]}: workspace, project and request ids. */
    static ObjectNode token(String description) {
        return string(1, 128, TOKEN_PATTERN, description);
    }

    static ObjectNode hex40(String description) {
        return string(40, 40, HEX40_PATTERN, description);
    }

    static ObjectNode integer(long minimum, long maximum, String description) {
        ObjectNode schema = described(typed("integer"), description);
        schema.put("minimum", minimum);
        schema.put("maximum", maximum);
        return schema;
    }

    static ObjectNode integer(String description) {
        return described(typed("integer"), description);
    }

    static ObjectNode bool(String description) {
        return described(typed("boolean"), description);
    }

    static ObjectNode constant(String value) {
        ObjectNode schema = typed("string");
        schema.put("const", value);
        return schema;
    }

    static ObjectNode constant(int value) {
        ObjectNode schema = typed("integer");
        schema.put("const", value);
        return schema;
    }

    static ObjectNode oneOfStrings(String description, String... values) {
        ObjectNode schema = described(typed("string"), description);
        ArrayNode list = schema.putArray("enum");
        for (String value : values) {
            list.add(value);
        }
        return schema;
    }

    /** The same schema, also allowing {@code null}. */
    static ObjectNode nullable(ObjectNode schema) {
        ObjectNode copy = schema.deepCopy();
        String type = copy.path("type").asString();
        copy.putArray("type").add(type).add("null");
        return copy;
    }

    static ObjectNode arrayOf(ObjectNode items, String description) {
        ObjectNode schema = described(typed("array"), description);
        schema.set("items", items);
        return schema;
    }

    /** Any JSON value (a typed result whose shape belongs to the operation's tool). */
    static ObjectNode anyValue(String description) {
        return described(McpJson.object(), description);
    }

    static ObjectSchema object() {
        return new ObjectSchema();
    }

    /** A tool without arguments: an empty, closed object. */
    static ObjectNode noArguments() {
        return object().closed().build();
    }

    /**
     * The Control API 1.0 envelope around {@code data}: {@code {controlApiVersion:"1.0", status:"ok", data}}
     * or {@code {controlApiVersion:"1.0", status:"error", code, message}}.
     */
    static ObjectNode envelope(ObjectNode data) {
        ObjectNode ok = object().property("controlApiVersion", constant(Envelope.CONTROL_API_VERSION)).property("status", constant("ok"))
                .property("data", data).require("controlApiVersion", "status", "data").build();
        ObjectNode error = object().property("controlApiVersion", constant(Envelope.CONTROL_API_VERSION)).property("status", constant("error"))
                .property("code", oneOfStrings("a stable Control API error code", errorCodes()))
                .property("message", string("what went wrong, for a human or a model"))
                .require("controlApiVersion", "status", "code", "message").build();
        ObjectNode root = typed("object");
        root.putArray("oneOf").add(ok).add(error);
        return root;
    }

    private static String[] errorCodes() {
        ErrorCode[] codes = ErrorCode.values();
        String[] names = new String[codes.length];
        for (int i = 0; i < codes.length; i++) {
            names[i] = codes[i].name();
        }
        return names;
    }

    private static ObjectNode typed(String type) {
        ObjectNode schema = McpJson.object();
        schema.put("type", type);
        return schema;
    }

    private static ObjectNode described(ObjectNode schema, String description) {
        if (description != null) {
            schema.put("description", description);
        }
        return schema;
    }

    /** An object schema under construction; properties keep their insertion order. */
    static final class ObjectSchema {
        private final ObjectNode schema = typed("object");
        private final ObjectNode properties = schema.putObject("properties");

        ObjectSchema property(String name, ObjectNode propertySchema) {
            properties.set(name, propertySchema);
            return this;
        }

        ObjectSchema require(String... names) {
            ArrayNode required = schema.has("required") ? (ArrayNode) schema.get("required") : schema.putArray("required");
            for (String name : names) {
                required.add(name);
            }
            return this;
        }

        /** Refuses fields not listed (every input object is closed). */
        ObjectSchema closed() {
            schema.put("additionalProperties", false);
            return this;
        }

        ObjectSchema description(String description) {
            schema.put("description", description);
            return this;
        }

        ObjectNode build() {
            return schema;
        }
    }
}
