package dev.lomicontrol.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A validator for the JSON Schema subset the catalog uses: {@code type} (a name or a list),
 * {@code properties}, {@code required}, {@code additionalProperties} (boolean or schema),
 * {@code enum}, {@code const}, {@code minLength}/{@code maxLength} (in code points),
 * {@code pattern} (unanchored search, {@code $} at the end of the input only, as in JSON Schema),
 * {@code minimum}/{@code maximum},
 * {@code items}, {@code minItems}/{@code maxItems}, {@code oneOf} and {@code anyOf}. Annotations
 * ({@code title}, {@code description}, …) are ignored; any other keyword is a programming error
 * (IllegalArgumentException), so a schema can never silently promise more than is checked.
 */
final class SchemaValidator {

    private static final Set<String> ANNOTATIONS = Set.of("title", "description", "default", "examples", "$comment");
    private static final Set<String> KEYWORDS = Set.of(
            "type",
            "properties",
            "required",
            "additionalProperties",
            "enum",
            "const",
            "minLength",
            "maxLength",
            "pattern",
            "minimum",
            "maximum",
            "items",
            "minItems",
            "maxItems",
            "oneOf",
            "anyOf");
    private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();

    private SchemaValidator() {}

    /**
     * The first violation of {@code schema} by {@code value}, as a message that starts with the path
     * of the offending field ({@code root}, {@code root.field}, {@code root.list[2]}); empty when valid.
     */
    static Optional<String> firstViolation(JsonNode schema, JsonNode value, String root) {
        return Optional.ofNullable(check(schema, value, root));
    }

    /** Throws IllegalArgumentException when {@code schema} (recursively) uses a keyword outside the subset. */
    static void requireSupported(JsonNode schema) {
        requireKnownKeywords(schema);
        schema.path("properties").values().forEach(SchemaValidator::requireSupported);
        for (String key : List.of("items", "additionalProperties")) {
            if (schema.path(key).isObject()) {
                requireSupported(schema.get(key));
            }
        }
        for (String key : List.of("oneOf", "anyOf")) {
            schema.path(key).values().forEach(SchemaValidator::requireSupported);
        }
    }

    private static void requireKnownKeywords(JsonNode schema) {
        if (!schema.isObject()) {
            throw new IllegalArgumentException("a schema must be an object, got " + schema);
        }
        schema.propertyNames().forEach(keyword -> {
            if (!KEYWORDS.contains(keyword) && !ANNOTATIONS.contains(keyword)) {
                throw new IllegalArgumentException("unsupported schema keyword '" + keyword + "'");
            }
        });
    }

    private static @Nullable String check(JsonNode schema, JsonNode value, String path) {
        requireKnownKeywords(schema);
        @Nullable String problem = type(schema, value, path);
        problem = problem != null ? problem : constant(schema, value, path);
        problem = problem != null ? problem : string(schema, value, path);
        problem = problem != null ? problem : number(schema, value, path);
        problem = problem != null ? problem : object(schema, value, path);
        problem = problem != null ? problem : array(schema, value, path);
        return problem != null ? problem : alternatives(schema, value, path);
    }

    private static @Nullable String type(JsonNode schema, JsonNode value, String path) {
        JsonNode type = schema.get("type");
        if (type == null) {
            return null;
        }
        List<String> allowed = new ArrayList<>();
        if (type.isArray()) {
            type.values().forEach(t -> allowed.add(t.asString()));
        } else {
            allowed.add(type.asString());
        }
        for (String name : allowed) {
            if (hasType(value, name)) {
                return null;
            }
        }
        return path + ": must be " + String.join(" or ", allowed) + ", got " + describe(value);
    }

    private static boolean hasType(JsonNode value, String type) {
        switch (type) {
            case "object":
                return value.isObject();
            case "array":
                return value.isArray();
            case "string":
                return value.isString();
            case "boolean":
                return value.isBoolean();
            case "null":
                return value.isNull();
            case "number":
                return finite(value);
            case "integer":
                return value.isIntegralNumber()
                        || (finite(value)
                                && value.decimalValue().stripTrailingZeros().scale() <= 0);
            default:
                throw new IllegalArgumentException("unknown schema type '" + type + "'");
        }
    }

    /** A JSON number the schema rules can compare: a literal too large for a double (1e999999) is not one. */
    private static boolean finite(JsonNode value) {
        return value.isNumber()
                && (!value.isFloatingPointNumber() || value.isBigDecimal() || Double.isFinite(value.doubleValue()));
    }

    private static @Nullable String constant(JsonNode schema, JsonNode value, String path) {
        if (schema.has("const") && !same(schema.get("const"), value)) {
            return path + ": must be " + schema.get("const");
        }
        if (schema.has("enum")) {
            for (JsonNode allowed : schema.get("enum").values()) {
                if (same(allowed, value)) {
                    return null;
                }
            }
            return path + ": must be one of " + schema.get("enum") + ", got " + abbreviate(value);
        }
        return null;
    }

    private static @Nullable String string(JsonNode schema, JsonNode value, String path) {
        if (!value.isString()) {
            return null;
        }
        String text = value.asString();
        int length = text.codePointCount(0, text.length());
        if (schema.has("minLength") && length < schema.get("minLength").asInt()) {
            return path + ": must be at least " + schema.get("minLength").asInt() + " characters long";
        }
        if (schema.has("maxLength") && length > schema.get("maxLength").asInt()) {
            return path + ": must be at most " + schema.get("maxLength").asInt() + " characters long, got " + length;
        }
        if (schema.has("pattern")
                && !pattern(schema.get("pattern").asString()).matcher(text).find()) {
            return path + ": must match the pattern " + schema.get("pattern").asString();
        }
        return null;
    }

    private static @Nullable String number(JsonNode schema, JsonNode value, String path) {
        if (!value.isNumber()) {
            return null;
        }
        if (!finite(value)) {
            return (schema.has("minimum") || schema.has("maximum")) ? path + ": must be a finite number" : null;
        }
        if (schema.has("minimum")
                && value.decimalValue().compareTo(schema.get("minimum").decimalValue()) < 0) {
            return path + ": must be at least " + schema.get("minimum");
        }
        if (schema.has("maximum")
                && value.decimalValue().compareTo(schema.get("maximum").decimalValue()) > 0) {
            return path + ": must be at most " + schema.get("maximum");
        }
        return null;
    }

    private static @Nullable String object(JsonNode schema, JsonNode value, String path) {
        if (!value.isObject()) {
            return null;
        }
        for (JsonNode name : schema.path("required").values()) {
            if (!value.has(name.asString())) {
                return path + "." + name.asString() + ": is required";
            }
        }
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.get("additionalProperties");
        for (Map.Entry<String, JsonNode> field : value.properties()) {
            String fieldPath = path + "." + field.getKey();
            JsonNode fieldSchema = properties.get(field.getKey());
            if (fieldSchema == null && additional != null && additional.isBoolean() && !additional.asBoolean()) {
                return fieldPath + ": unknown field (allowed: " + String.join(", ", properties.propertyNames()) + ")";
            }
            JsonNode applied =
                    fieldSchema != null ? fieldSchema : additional != null && additional.isObject() ? additional : null;
            String problem = applied == null ? null : check(applied, field.getValue(), fieldPath);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static @Nullable String array(JsonNode schema, JsonNode value, String path) {
        if (!value.isArray()) {
            return null;
        }
        if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
            return path + ": must have at least " + schema.get("minItems").asInt() + " items";
        }
        if (schema.has("maxItems") && value.size() > schema.get("maxItems").asInt()) {
            return path + ": must have at most " + schema.get("maxItems").asInt() + " items";
        }
        if (schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                String problem = check(schema.get("items"), value.get(i), path + "[" + i + "]");
                if (problem != null) {
                    return problem;
                }
            }
        }
        return null;
    }

    /** oneOf: exactly one alternative matches; anyOf: at least one. The message lists why each alternative failed. */
    private static @Nullable String alternatives(JsonNode schema, JsonNode value, String path) {
        for (String keyword : List.of("oneOf", "anyOf")) {
            if (!schema.has(keyword)) {
                continue;
            }
            List<String> failures = new ArrayList<>();
            int matches = 0;
            for (JsonNode alternative : schema.get(keyword).values()) {
                String problem = check(alternative, value, path);
                if (problem == null) {
                    matches++;
                } else {
                    failures.add(
                            alternative.has("description")
                                    ? alternative.get("description").asString() + " → " + problem
                                    : problem);
                }
            }
            if (keyword.equals("oneOf") && matches > 1) {
                return path + ": matches more than one of the allowed forms";
            }
            if (matches == 0) {
                return path + ": must match " + (keyword.equals("oneOf") ? "exactly" : "at least")
                        + " one of the allowed forms: " + String.join("; or ", failures);
            }
        }
        return null;
    }

    private static boolean same(JsonNode expected, JsonNode value) {
        if (expected.isNumber() && value.isNumber()) {
            if (!finite(expected) || !finite(value)) {
                return false;
            }
            return expected.decimalValue().compareTo(value.decimalValue()) == 0;
        }
        return expected.equals(value);
    }

    private static Pattern pattern(String regex) {
        return PATTERNS.computeIfAbsent(regex, r -> Pattern.compile(endOfInput(r)));
    }

    /**
     * The regex with each {@code $} outside a character class as {@code \z}: in JSON Schema
     * (ECMA-262) {@code $} matches only at the end of the input, where Java's also matches before a
     * final line terminator.
     */
    static String endOfInput(String regex) {
        StringBuilder out = new StringBuilder(regex.length() + 4);
        int classes = 0;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\' && i + 1 < regex.length()) {
                out.append(c).append(regex.charAt(++i));
                continue;
            }
            if (c == '[') {
                classes++;
            } else if (c == ']' && classes > 0) {
                classes--;
            } else if (c == '$' && classes == 0) {
                out.append("\\z");
                continue;
            }
            out.append(c);
        }
        return out.toString();
    }

    private static String describe(JsonNode value) {
        return value.isNull()
                ? "null"
                : value.isObject()
                        ? "an object"
                        : value.isArray()
                                ? "an array"
                                : value.isString()
                                        ? "a string"
                                        : value.isBoolean() ? "a boolean" : "the number " + value;
    }

    private static String abbreviate(JsonNode value) {
        String text = McpJson.string(value);
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }
}
