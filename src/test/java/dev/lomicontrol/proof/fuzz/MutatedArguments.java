package dev.lomicontrol.proof.fuzz;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Tool arguments built from a tool's published {@code inputSchema}, then mutated: required fields
 * dropped, values of the wrong type, numbers past their bounds, unknown fields, and — often enough
 * to reach the native validators — values that are plausible or real ({@code workspaceId}s and
 * retry epochs the broker handed out). The output is JSON text with distinct keys.
 */
final class MutatedArguments {

    /** A length bound folded into a pattern's closing quantifier: {@code {64}$} or {@code {1,128}$}. */
    private static final java.util.regex.Pattern FOLDED = java.util.regex.Pattern.compile("\\{(?:\\d+,)?(\\d+)}\\$$");

    private final Random random;
    private final List<String> realValues;

    /** @param realValues strings worth trying in any string field (ids the broker issued, a project path) */
    MutatedArguments(Random random, List<String> realValues) {
        this.random = random;
        this.realValues = List.copyOf(realValues);
    }

    /** An arguments object for a tool with {@code inputSchema}. */
    String forSchema(JsonNode inputSchema) {
        if (random.nextInt(20) == 0) {
            return JsonText.randomObject(random, 3);
        }
        return object(inputSchema, 0);
    }

    private String value(JsonNode schema, int depth) {
        if (depth > 6 || random.nextInt(8) == 0) {
            return JsonText.randomValue(random, 2);
        }
        if (schema.has("const")) {
            return schema.get("const").toString();
        }
        if (schema.has("enum")) {
            JsonNode choices = schema.get("enum");
            return random.nextInt(6) == 0
                    ? JsonText.quote(JsonText.randomString(random))
                    : choices.get(random.nextInt(choices.size())).toString();
        }
        for (String union : List.of("oneOf", "anyOf")) {
            if (schema.has(union) && schema.get(union).size() > 0) {
                return value(
                        schema.get(union).get(random.nextInt(schema.get(union).size())), depth + 1);
            }
        }
        JsonNode type = schema.path("type");
        String name = type.isArray() && type.size() > 0
                ? type.get(random.nextInt(type.size())).asString()
                : type.asString("");
        switch (name) {
            case "object":
                return object(schema, depth);
            case "array":
                return array(schema, depth);
            case "string":
                return JsonText.quote(string(schema));
            case "integer":
            case "number":
                return number(schema);
            case "boolean":
                return random.nextBoolean() ? "true" : "false";
            case "null":
                return "null";
            default:
                return JsonText.randomValue(random, 2);
        }
    }

    private String object(JsonNode schema, int depth) {
        JsonNode properties = schema.path("properties");
        Set<String> required = new LinkedHashSet<>();
        schema.path("required").values().forEach(field -> required.add(field.asString()));
        StringBuilder out = new StringBuilder("{");
        Set<String> written = new LinkedHashSet<>();
        for (java.util.Map.Entry<String, JsonNode> property : properties.properties()) {
            boolean include = required.contains(property.getKey()) ? random.nextInt(12) != 0 : random.nextInt(3) == 0;
            if (include) {
                field(out, written, property.getKey(), value(property.getValue(), depth + 1));
            }
        }
        if (properties.isEmpty() || random.nextInt(10) == 0) {
            field(out, written, JsonText.randomString(random), JsonText.randomValue(random, 2));
        }
        return out.append('}').toString();
    }

    private static void field(StringBuilder out, Set<String> written, String name, String value) {
        if (written.add(name)) {
            out.append(out.length() > 1 ? "," : "")
                    .append(JsonText.quote(name))
                    .append(':')
                    .append(value);
        }
    }

    private String array(JsonNode schema, int depth) {
        int min = schema.path("minItems").asInt(0);
        int max = Math.min(schema.path("maxItems").asInt(4), 4);
        int count =
                random.nextInt(8) == 0 ? max + 1 + random.nextInt(3) : min + random.nextInt(Math.max(1, max - min + 1));
        List<String> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add(value(schema.path("items"), depth + 1));
        }
        return "[" + String.join(",", items) + "]";
    }

    private String string(JsonNode schema) {
        int roll = random.nextInt(10);
        if (roll < 3 && !realValues.isEmpty()) {
            return realValues.get(random.nextInt(realValues.size()));
        }
        if (roll == 3) {
            return Integer.toString(random.nextInt(12));
        }
        if (roll == 4) {
            byte[] bytes = new byte[random.nextBoolean() ? 20 : 32];
            random.nextBytes(bytes);
            return HexFormat.of().formatHex(bytes);
        }
        if (roll == 5) {
            int length = Math.max(0, longest(schema) + (random.nextBoolean() ? 1 : 0));
            return "k".repeat(Math.min(length, 70_000));
        }
        if (roll == 6) {
            return "fuzz-" + random.nextInt(1000);
        }
        return JsonText.randomString(random);
    }

    /** The longest string the schema allows: its maxLength, or the bound a pattern ending in {@code {a,b}$} folds in; 64 when neither says. */
    private static int longest(JsonNode schema) {
        if (schema.has("maxLength")) {
            return schema.get("maxLength").asInt();
        }
        java.util.regex.Matcher bound = FOLDED.matcher(schema.path("pattern").asString(""));
        return bound.find() ? Integer.parseInt(bound.group(1)) : 64;
    }

    private String number(JsonNode schema) {
        switch (random.nextInt(5)) {
            case 0:
                return schema.has("minimum") ? schema.get("minimum").toString() : "0";
            case 1:
                return schema.has("maximum") ? schema.get("maximum").toString() : "1";
            case 2:
                return schema.has("maximum")
                        ? new java.math.BigDecimal(schema.get("maximum").toString())
                                .add(java.math.BigDecimal.ONE)
                                .toPlainString()
                        : "-1";
            case 3:
                return JsonText.randomNumber(random);
            default:
                return Integer.toString(random.nextInt(100));
        }
    }
}
