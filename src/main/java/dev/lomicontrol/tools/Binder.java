package dev.lomicontrol.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Binds a tool's JSON arguments into its declared input record — the one native validation both
 * the helper and the broker run (SPEC §5): unknown fields are refused, {@code null} for an optional
 * field means absent, lengths count code points, patterns match whole, integers stay in range, a
 * union takes exactly one variant, and a record's own constructor checks what spans fields. Every
 * refusal is INVALID_ARGUMENT naming the field's path.
 */
public final class Binder {

    /** Arguments over this many bytes, serialized, are refused before anything binds them (SPEC §7, §12). */
    public static final int MAX_ARGUMENT_BYTES = 64 * 1024;

    private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();

    private Binder() {}

    /** PAYLOAD_TOO_LARGE for arguments of {@code size} serialized bytes over {@link #MAX_ARGUMENT_BYTES}; the same words in both processes. */
    public static void requireArgumentSize(String tool, int size) {
        if (size > MAX_ARGUMENT_BYTES) {
            throw new LomiException(
                    ErrorCode.PAYLOAD_TOO_LARGE,
                    "payload too large: the arguments of " + tool + " are " + size + " bytes; the limit is "
                            + MAX_ARGUMENT_BYTES);
        }
    }

    /** The bound input; missing or null arguments are the empty object. */
    public static <T> T bind(Class<T> type, JsonNode arguments) {
        JsonNode node = arguments == null || arguments.isNull() || arguments.isMissingNode()
                ? JsonNodeFactory.instance.objectNode()
                : arguments;
        return type.cast(value(Shapes.of(type), node, "arguments"));
    }

    private static Object value(Shape shape, JsonNode node, String path) {
        if (shape instanceof Shape.Str str) {
            return string(str, node, path);
        }
        if (shape instanceof Shape.Int integer) {
            return integer(integer, node, path);
        }
        if (shape instanceof Shape.Bool) {
            if (!node.isBoolean()) {
                throw invalid(path, "must be a boolean, got " + describe(node));
            }
            return node.booleanValue();
        }
        if (shape instanceof Shape.Enumerated enumerated) {
            Object constant = node.isString() ? enumerated.byWire().get(node.stringValue()) : null;
            if (constant == null) {
                throw invalid(
                        path,
                        "must be one of "
                                + String.join(", ", enumerated.byWire().keySet()) + ", got " + describe(node));
            }
            return constant;
        }
        if (shape instanceof Shape.Array array) {
            return array(array, node, path);
        }
        if (shape instanceof Shape.Any) {
            return node;
        }
        if (shape instanceof Shape.Obj obj) {
            return object(obj, node, path, Optional.empty());
        }
        if (shape instanceof Shape.Union union) {
            return union(union, node, path);
        }
        throw new IllegalStateException("unknown shape " + shape);
    }

    private static Object string(Shape.Str str, JsonNode node, String path) {
        if (!node.isString()) {
            throw invalid(path, "must be a string, got " + describe(node));
        }
        String text = node.stringValue();
        int length = text.codePointCount(0, text.length());
        if (length < str.min() || length > str.max()) {
            throw invalid(
                    path,
                    str.max() == Integer.MAX_VALUE
                            ? "must be at least " + str.min() + " characters long"
                            : "must be " + str.min() + "-" + str.max() + " characters long, got " + length);
        }
        if (str.pattern().isPresent()
                && !PATTERNS.computeIfAbsent(str.pattern().get(), Pattern::compile)
                        .matcher(text)
                        .matches()) {
            String pattern = str.pattern().get();
            throw invalid(
                    path,
                    "must match " + pattern
                            + str.description().map(d -> " (" + d + ")").orElse(""));
        }
        if (str.type() == String.class) {
            return text;
        }
        try {
            return str.type().getDeclaredConstructor(String.class).newInstance(text);
        } catch (InvocationTargetException e) {
            throw invalid(path, message(e.getCause()));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object integer(Shape.Int shape, JsonNode node, String path) {
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw invalid(
                    path,
                    "must be an integer" + (shape.min() > Long.MIN_VALUE ? " from " + shape.min() : "")
                            + (shape.max() < Long.MAX_VALUE ? " to " + shape.max() : "") + ", got " + describe(node));
        }
        long value = node.longValue();
        if (value < shape.min() || value > shape.max()) {
            throw invalid(path, "must be from " + shape.min() + " to " + shape.max() + ", got " + value);
        }
        return shape.type() == int.class || shape.type() == Integer.class ? (Object) (int) value : (Object) value;
    }

    private static List<Object> array(Shape.Array array, JsonNode node, String path) {
        if (!node.isArray()) {
            throw invalid(path, "must be an array, got " + describe(node));
        }
        if (node.size() < array.min() || node.size() > array.max()) {
            throw invalid(
                    path,
                    "must have " + array.min() + (array.max() == Integer.MAX_VALUE ? " or more" : "-" + array.max())
                            + " items, got " + node.size());
        }
        List<Object> items = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            items.add(value(array.items(), node.get(i), path + "[" + i + "]"));
        }
        return List.copyOf(items);
    }

    /** A closed object; {@code tagField} is the discriminator a tagged variant allows besides its own fields. */
    private static Object object(Shape.Obj obj, JsonNode node, String path, Optional<String> tagField) {
        if (!node.isObject()) {
            throw invalid(path, "must be an object, got " + describe(node));
        }
        for (String name : node.propertyNames()) {
            if (obj.field(name).isEmpty() && !tagField.filter(name::equals).isPresent()) {
                throw invalid(
                        path + "." + name,
                        "unknown field"
                                + (obj.fields().isEmpty()
                                        ? "; this takes no fields, so remove it"
                                        : "; allowed: "
                                                + obj.fields().stream()
                                                        .map(Shape.Field::name)
                                                        .collect(Collectors.joining(", "))
                                                + " (remove it or correct its name)"));
            }
        }
        Object[] values = new Object[obj.fields().size()];
        for (int i = 0; i < values.length; i++) {
            Shape.Field field = obj.fields().get(i);
            if (field.inline()) {
                throw new IllegalStateException(obj.type() + ": @Inline is for outputs");
            }
            JsonNode given = node.get(field.name());
            String at = path + "." + field.name();
            boolean absent = given == null || given.isNull();
            if (absent && field.optional()) {
                values[i] = Optional.empty();
            } else if (absent && field.defaultValue().isPresent()) {
                values[i] = value(field.shape(), field.defaultValue().get(), at);
            } else if (absent) {
                throw invalid(
                        at,
                        "is required; add it"
                                + field.description().map(d -> " (" + d + ")").orElse(""));
            } else {
                Object bound = value(field.shape(), given, at);
                values[i] = field.optional() ? Optional.of(bound) : bound;
            }
        }
        try {
            return obj.constructor().newInstance(values);
        } catch (InvocationTargetException e) {
            throw invalid(path, message(e.getCause()));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object union(Shape.Union union, JsonNode node, String path) {
        switch (union.style()) {
            case TAGGED:
                return tagged(union, node, path);
            case EXTERNAL:
                return external(union, node, path);
            default:
                return untagged(union, node, path);
        }
    }

    private static Object tagged(Shape.Union union, JsonNode node, String path) {
        if (!node.isObject()) {
            throw invalid(path, "must be an object, got " + describe(node));
        }
        JsonNode tag = node.get(union.tagField());
        if (tag == null || !tag.isString()) {
            throw invalid(path + "." + union.tagField(), "is required: one of " + Shapes.tags(union));
        }
        for (Shape.Variant variant : union.variants()) {
            if (variant.tag().equals(tag.stringValue())) {
                return object(variant.shape(), node, path, Optional.of(union.tagField()));
            }
        }
        throw invalid(path + "." + union.tagField(), "must be one of " + Shapes.tags(union) + ", got " + describe(tag));
    }

    private static Object external(Shape.Union union, JsonNode node, String path) {
        if (node.isString()) {
            for (Shape.Variant variant : union.variants()) {
                if (variant.tag().equals(node.stringValue())
                        && variant.shape().fields().isEmpty()) {
                    return object(variant.shape(), JsonNodeFactory.instance.objectNode(), path, Optional.empty());
                }
            }
        } else if (node.isObject() && node.size() == 1) {
            String name = node.propertyNames().iterator().next();
            for (Shape.Variant variant : union.variants()) {
                if (variant.tag().equals(name)) {
                    return object(variant.shape(), node.get(name), path + "." + name, Optional.empty());
                }
            }
        }
        throw invalid(
                path,
                "must be one of " + Shapes.tags(union) + " (a name alone, or {name: {…}}), got " + describe(node));
    }

    /** The one variant whose required fields are all present and which knows every present field. */
    private static Object untagged(Shape.Union union, JsonNode node, String path) {
        if (!node.isObject()) {
            throw invalid(path, "must be an object, got " + describe(node));
        }
        List<Shape.Variant> fitting = new ArrayList<>();
        for (Shape.Variant variant : union.variants()) {
            if (fits(variant.shape(), node)) {
                fitting.add(variant);
            }
        }
        if (fitting.size() == 1) {
            return object(fitting.get(0).shape(), node, path, Optional.empty());
        }
        String forms = union.variants().stream().map(v -> form(v.shape())).collect(Collectors.joining(" | "));
        if (fitting.isEmpty()) {
            for (String name : node.propertyNames()) {
                if (union.variants().stream()
                        .noneMatch(v -> v.shape().field(name).isPresent())) {
                    throw invalid(
                            path + "." + name,
                            "unknown field; allowed: "
                                    + union.variants().stream()
                                            .flatMap(v ->
                                                    v.shape().fields().stream().map(Shape.Field::name))
                                            .distinct()
                                            .collect(Collectors.joining(", "))
                                    + " (remove it or correct its name)");
                }
            }
            Optional<Shape.Variant> closest = closest(union, node);
            if (closest.isPresent()) {
                object(closest.get().shape(), node, path, Optional.empty());
            }
            throw invalid(path, "must be exactly one of the forms " + forms);
        }
        throw invalid(path, "matches more than one of the forms " + forms + "; send the fields of exactly one");
    }

    private static boolean fits(Shape.Obj variant, JsonNode node) {
        for (String name : node.propertyNames()) {
            if (variant.field(name).isEmpty() && !node.get(name).isNull()) {
                return false;
            }
        }
        return variant.fields().stream().filter(Shape.Field::required).allMatch(f -> node.hasNonNull(f.name()));
    }

    /** A variant that knows every present field (its own error then names what is missing). */
    private static Optional<Shape.Variant> closest(Shape.Union union, JsonNode node) {
        List<Shape.Variant> knowing = new ArrayList<>();
        for (Shape.Variant variant : union.variants()) {
            boolean knows = true;
            for (String name : node.propertyNames()) {
                knows &= variant.shape().field(name).isPresent();
            }
            if (knows) {
                knowing.add(variant);
            }
        }
        return knowing.size() == 1 ? Optional.of(knowing.get(0)) : Optional.empty();
    }

    private static String form(Shape.Obj variant) {
        return "{"
                + variant.fields().stream()
                        .map(f -> f.required() ? f.name() : f.name() + "?")
                        .collect(Collectors.joining(", "))
                + "}";
    }

    /** Why a value record refused the value: its own message, or when it gave none, a generic one with the next step. */
    private static String message(@Nullable Throwable cause) {
        if (cause instanceof LomiException lomi) {
            return lomi.getMessage();
        }
        String given = cause == null ? null : cause.getMessage();
        return given == null || given.isBlank()
                ? "is not a valid value here; send it in the form the tool's input schema describes"
                : given;
    }

    static String describe(JsonNode node) {
        if (node.isNull()) {
            return "null";
        }
        if (node.isString()) {
            return "a string";
        }
        if (node.isNumber()) {
            return "the number " + node;
        }
        if (node.isBoolean()) {
            return node.toString();
        }
        return node.isArray() ? "an array" : "an object";
    }

    static LomiException invalid(String path, String message) {
        return new LomiException(ErrorCode.INVALID_ARGUMENT, path + ": " + message);
    }
}
