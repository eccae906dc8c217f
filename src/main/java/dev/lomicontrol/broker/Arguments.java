package dev.lomicontrol.broker;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A tool call's arguments, validated natively again (SPEC §5): an object whose fields are all
 * named by the tool; a JSON {@code null} value counts as absent. Every refusal is INVALID_ARGUMENT
 * naming the field.
 */
final class Arguments {

    private final JsonNode node;

    private Arguments(JsonNode node) {
        this.node = node;
    }

    /** Missing or null arguments are the empty object; an unknown field is refused. */
    static Arguments of(JsonNode arguments, String... allowed) {
        if (arguments == null || arguments.isNull() || arguments.isMissingNode()) {
            return new Arguments(JsonNodeFactory.instance.objectNode());
        }
        if (!arguments.isObject()) {
            throw invalid("arguments must be an object");
        }
        List<String> known = List.of(allowed);
        for (String name : arguments.propertyNames()) {
            if (!known.contains(name)) {
                throw invalid("unknown field " + name + (known.isEmpty() ? "; this tool takes no arguments" : "; allowed: " + String.join(", ", known)));
            }
        }
        return new Arguments(arguments);
    }

    boolean has(String name) {
        JsonNode value = node.get(name);
        return value != null && !value.isNull();
    }

    Optional<String> optionalString(String name) {
        if (!has(name)) {
            return Optional.empty();
        }
        JsonNode value = node.get(name);
        if (!value.isString()) {
            throw invalid(name + " must be a string");
        }
        return Optional.of(value.stringValue());
    }

    String requiredString(String name) {
        return optionalString(name).orElseThrow(() -> invalid(name + " is required"));
    }

    /** An integer in {@code min..max}; absent means {@code fallback}, or INVALID_ARGUMENT when there is none. */
    int integer(String name, int min, int max, OptionalInt fallback) {
        if (!has(name)) {
            return fallback.orElseThrow(() -> invalid(name + " is required (" + min + ".." + max + ")"));
        }
        JsonNode value = node.get(name);
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < min || value.intValue() > max) {
            throw invalid(name + " must be an integer " + min + ".." + max);
        }
        return value.intValue();
    }

    /** A boolean; absent gives {@code fallback}. */
    boolean bool(String name, boolean fallback) {
        if (!has(name)) {
            return fallback;
        }
        JsonNode value = node.get(name);
        if (!value.isBoolean()) {
            throw invalid(name + " must be true or false");
        }
        return value.booleanValue();
    }

    /** An array of at most {@code maxItems} strings; absent is empty. */
    List<String> strings(String name, int maxItems) {
        if (!has(name)) {
            return List.of();
        }
        JsonNode value = node.get(name);
        if (!value.isArray() || value.size() > maxItems) {
            throw invalid(name + " must be an array of at most " + maxItems + " strings");
        }
        List<String> out = new java.util.ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isString()) {
                throw invalid(name + " must contain only strings");
            }
            out.add(item.stringValue());
        }
        return out;
    }

    /** The raw value of a field (may be null). */
    JsonNode raw(String name) {
        return node.get(name);
    }

    /** A nested object field checked like the arguments themselves (unknown fields refused). */
    Arguments object(String name, String... allowed) {
        if (!has(name)) {
            throw invalid(name + " is required");
        }
        if (!node.get(name).isObject()) {
            throw invalid(name + " must be an object");
        }
        try {
            return of(node.get(name), allowed);
        } catch (LomiException e) {
            throw invalid(name + ": " + e.getMessage());
        }
    }

    /** One of {@code values}; absent gives {@code fallback}, or INVALID_ARGUMENT when there is none. */
    String choice(String name, Optional<String> fallback, String... values) {
        Optional<String> value = optionalString(name);
        if (value.isEmpty()) {
            return fallback.orElseThrow(() -> invalid(name + " is required (" + String.join("|", values) + ")"));
        }
        if (!List.of(values).contains(value.get())) {
            throw invalid(name + " must be one of " + String.join(", ", values));
        }
        return value.get();
    }

    static LomiException invalid(String message) {
        return new LomiException(ErrorCode.INVALID_ARGUMENT, message);
    }
}
