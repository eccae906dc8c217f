package dev.lomicontrol.settings;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.BooleanNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/** The sections, their fields, defaults and value rules; the one place that says what a valid setting is. */
final class SettingsSchema {

    static final String EDITOR = "editor";
    static final String TERMINAL = "terminal";
    static final String AGENT_CONTROL = "agentControl";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private record Field(String name, JsonNode defaultValue, Predicate<JsonNode> valid, String rule) {}

    private static final Map<String, List<Field>> EDITABLE = Map.of(
            EDITOR,
                    List.of(
                            integer("tabSize", 1, 16, EditorSettings.DEFAULTS.tabSize()),
                            bool("insertSpaces", EditorSettings.DEFAULTS.insertSpaces()),
                            bool("insertFinalNewline", EditorSettings.DEFAULTS.insertFinalNewline())),
            TERMINAL,
                    List.of(
                            oneOf("defaultProfile", Set.of("bash", "zsh"), TerminalSettings.DEFAULTS.defaultProfile()),
                            integer(
                                    "scrollbackBytes",
                                    65_536,
                                    4_194_304,
                                    TerminalSettings.DEFAULTS.scrollbackBytes())));

    private SettingsSchema() {}

    /** INVALID_ARGUMENT unless {@code section} names a section; SCOPE_DENIED when it exists but is read-only. */
    static void requireEditable(String section) {
        if (AGENT_CONTROL.equals(section)) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    "the agentControl settings are a read-only view; change them in the admin console");
        }
        fields(section);
    }

    static boolean isEditable(String section) {
        return EDITABLE.containsKey(section);
    }

    /** The section's fields at their defaults, in the section's order. */
    static ObjectNode defaults(String section) {
        ObjectNode values = JsonNodeFactory.instance.objectNode();
        fields(section).forEach(f -> values.set(f.name(), f.defaultValue()));
        return values;
    }

    /** The defaults overlaid with every valid stored field (a field a later version dropped or tightened falls back to its default). */
    static ObjectNode fromStored(String section, String storedJson) {
        JsonNode stored = JSON.readTree(storedJson);
        ObjectNode values = defaults(section);
        for (Field field : fields(section)) {
            JsonNode value = stored.get(field.name());
            if (value != null && field.valid().test(value)) {
                values.set(field.name(), normal(value));
            }
        }
        return values;
    }

    /** {@code before} with the patch applied; INVALID_ARGUMENT for a non-object or empty patch, an unknown field or a bad value. */
    static ObjectNode patched(String section, ObjectNode before, JsonNode patch) {
        if (patch == null || !patch.isObject() || patch.isEmpty()) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "a settings patch is a non-empty object of {field: value}");
        }
        ObjectNode after = before.deepCopy();
        for (Map.Entry<String, JsonNode> entry : patch.properties()) {
            Field field = field(section, entry.getKey());
            if (!field.valid().test(entry.getValue())) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        section + "." + field.name() + " must be " + field.rule() + ", was " + entry.getValue());
            }
            after.set(field.name(), normal(entry.getValue()));
        }
        return after;
    }

    /** INVALID_ARGUMENT unless {@code values} holds exactly the section's fields, each valid. */
    static void requireComplete(String section, JsonNode values) {
        List<Field> fields = fields(section);
        if (values == null || !values.isObject() || values.size() != fields.size()) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "the " + section + " values must hold exactly its " + fields.size() + " fields");
        }
        for (Field field : fields) {
            JsonNode value = values.get(field.name());
            if (value == null || !field.valid().test(value)) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT, section + "." + field.name() + " must be " + field.rule());
            }
        }
    }

    /** The canonical stored form: keys sorted, no whitespace. */
    static String canonical(JsonNode values) {
        TreeMap<String, JsonNode> sorted = new TreeMap<>();
        values.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        sorted.forEach(out::set);
        return JSON.writeValueAsString(out);
    }

    /** Integers as int nodes, so equal values compare equal whatever number type the caller built. */
    private static JsonNode normal(JsonNode value) {
        return value.isIntegralNumber()
                ? IntNode.valueOf(value.bigIntegerValue().intValueExact())
                : value;
    }

    private static List<Field> fields(String section) {
        List<Field> fields = section == null ? null : EDITABLE.get(section);
        if (fields == null) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "unknown settings section '" + section + "'; one of editor, terminal, agentControl");
        }
        return fields;
    }

    private static Field field(String section, String name) {
        Optional<Field> field =
                fields(section).stream().filter(f -> f.name().equals(name)).findFirst();
        return field.orElseThrow(
                () -> new LomiException(ErrorCode.INVALID_ARGUMENT, "unknown " + section + " setting '" + name + "'"));
    }

    private static Field integer(String name, int min, int max, int defaultValue) {
        Predicate<JsonNode> valid = n -> n.isIntegralNumber()
                && n.bigIntegerValue().compareTo(BigInteger.valueOf(min)) >= 0
                && n.bigIntegerValue().compareTo(BigInteger.valueOf(max)) <= 0;
        return new Field(name, IntNode.valueOf(defaultValue), valid, "an integer " + min + ".." + max);
    }

    private static Field bool(String name, boolean defaultValue) {
        return new Field(name, BooleanNode.valueOf(defaultValue), JsonNode::isBoolean, "true or false");
    }

    private static Field oneOf(String name, Set<String> allowed, String defaultValue) {
        Predicate<JsonNode> valid = n -> n.isString() && allowed.contains(n.stringValue());
        return new Field(
                name, StringNode.valueOf(defaultValue), valid, "one of " + String.join(", ", new TreeSet<>(allowed)));
    }
}
