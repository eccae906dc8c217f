package dev.lomicontrol.mcp;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.ipc.Envelope;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
    /** A counter that starts at 1 ({@code inputSequence}). */
    static final String POSITIVE_DECIMAL_PATTERN = "^[1-9][0-9]*$";
    /** Terminal session ids and lease ids. */
    static final String HEX32_PATTERN = "^[0-9a-f]{32}$";
    /** One line, not blank, no control characters: names and titles. */
    static final String ONE_LINE_PATTERN = "^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$";

    /** SHA-256 in lower-case hex: disk, directory and entry revisions, artifact digests. */
    static final String HEX64_PATTERN = "^[0-9a-f]{64}$";

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

    /** 32 lower-case hex digits: a {@code terminalSessionId} or {@code leaseId}. */
    static ObjectNode hex32(String description) {
        return string(32, 32, HEX32_PATTERN, description);
    }

    /** An unsigned 64-bit number as a decimal string (revisions, cursors, sequences), so no client loses precision. */
    static ObjectNode decimal(String description) {
        return string(1, 20, DECIMAL_PATTERN, description);
    }

    /** 1 to {@code maxLength} characters on one line, not blank: a name or a title. */
    static ObjectNode oneLine(int maxLength, String description) {
        return string(1, maxLength, ONE_LINE_PATTERN, description);
    }

    /** The same schema annotated with the value the broker uses when the field is omitted. */
    static ObjectNode withDefault(ObjectNode schema, int value) {
        schema.put("default", value);
        return schema;
    }

    static ObjectNode withDefault(ObjectNode schema, String value) {
        schema.put("default", value);
        return schema;
    }

    /** 64 lower-case hex digits: a SHA-256 ({@code diskRevision}, {@code directoryRevision}, {@code sha256}, …). */
    static ObjectNode hex64(String description) {
        return string(64, 64, HEX64_PATTERN, description);
    }

    static ObjectNode withDefault(ObjectNode schema, boolean value) {
        schema.put("default", value);
        return schema;
    }

    /** An integer of at least {@code minimum} (a one-based line or column, a count). */
    static ObjectNode atLeast(long minimum, String description) {
        ObjectNode schema = described(typed("integer"), description);
        schema.put("minimum", minimum);
        return schema;
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

    /** An array of {@code minItems} to {@code maxItems} items. */
    static ObjectNode arrayOf(ObjectNode items, int minItems, int maxItems, String description) {
        ObjectNode schema = arrayOf(items, description);
        schema.put("minItems", minItems);
        schema.put("maxItems", maxItems);
        return schema;
    }

    /** Any JSON object; output only (values whose keys belong to a section or a plugin). */
    static ObjectNode anyObject(String description) {
        return described(typed("object"), description);
    }

    /** Any JSON value (a typed result whose shape belongs to the operation's tool). */
    static ObjectNode anyValue(String description) {
        return described(McpJson.object(), description);
    }

    static ObjectSchema object() {
        return new ObjectSchema();
    }

    /**
     * A constraint (never published) that holds when exactly one of {@code forms} matches: how a
     * union input is enforced while the published schema stays one closed object (SPEC §5).
     */
    static ObjectNode exactlyOne(ObjectNode... forms) {
        ObjectNode constraint = McpJson.object();
        ArrayNode list = constraint.putArray("oneOf");
        Arrays.stream(forms).forEach(list::add);
        return constraint;
    }

    /**
     * One form of a union, for a constraint: a closed object that allows exactly {@code fields}.
     * Their types are already checked by the published schema, so each field accepts any value
     * unless the caller pins it (a discriminator) with {@link ObjectSchema#property}.
     */
    static ObjectSchema form(String description, List<String> fields) {
        ObjectSchema form = object().closed().description(description);
        fields.forEach(field -> form.property(field, McpJson.object()));
        return form;
    }

    /**
     * A constraint (never published) for paged reads: a page after the first ({@code offsetField}
     * above 0) must name the revision it continues ({@code revisionField}), so that pages of two
     * different texts are never stitched together.
     */
    static ObjectNode requiredAfterFirstPage(String offsetField, String revisionField) {
        ObjectNode zero = McpJson.object();
        zero.put("maximum", 0);
        ObjectNode first = object().property(offsetField, zero).description("the first page: " + offsetField + " 0 or omitted").build();
        ObjectNode later = object().require(revisionField).description("a later page, with " + revisionField).build();
        ObjectNode constraint = McpJson.object();
        constraint.putArray("anyOf").add(first).add(later);
        return constraint;
    }

    /** The property names of a published object schema, in order, without {@code excluded}. */
    static List<String> fieldsOf(ObjectNode published, String... excluded) {
        List<String> fields = new ArrayList<>(published.path("properties").propertyNames());
        fields.removeAll(Arrays.asList(excluded));
        return fields;
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

        /** Adds and requires {@code expectedRevision}: the {@code domainRevision} of a fresh workspace or panel list. */
        ObjectSchema expectedRevision() {
            return property("expectedRevision", decimal("the domainRevision from lomi_workspace_list or lomi_panel_list this change is based "
                    + "on; a stale one fails the operation with REVISION_CONFLICT")).require("expectedRevision");
        }

        /** Adds and requires the durable request identity every OP tool takes: {@code retryEpoch} and {@code requestKey}. */
        ObjectSchema durable() {
            return property("retryEpoch", hex40("the retryEpoch lomi_connect returned for this connection"))
                    .property("requestKey", token("your key for this request (1-128 of A-Za-z0-9._:-); resend the same request with the same key "
                            + "after a lost answer, or read it back with lomi_operation_get"))
                    .require("retryEpoch", "requestKey");
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
