package dev.lomicontrol.tools;

import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes a declared output record as JSON, following the same {@link Shape} its published
 * outputSchema comes from: every component is written (an empty {@code Optional} as {@code null}),
 * a tagged variant leads with its tag (the {@code kind} of a result), ids as their strings.
 */
public final class Encoder {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private Encoder() {}

    public static JsonNode encode(Object value) {
        if (value instanceof JsonNode node) {
            return node;
        }
        return write(Shapes.of(value.getClass()), value);
    }

    /** Encodes a value as one variant of a declared union (the variant's tag is written first). */
    public static ObjectNode encode(Class<?> union, Object variant) {
        return (ObjectNode) write(Shapes.of(union), variant);
    }

    private static JsonNode write(Shape shape, Object value) {
        if (shape instanceof Shape.Str str) {
            return JSON.stringNode(str.type() == String.class ? (String) value : text(value));
        }
        if (shape instanceof Shape.Int) {
            return JSON.numberNode(((Number) value).longValue());
        }
        if (shape instanceof Shape.Bool) {
            return JSON.booleanNode((Boolean) value);
        }
        if (shape instanceof Shape.Enumerated enumerated) {
            return JSON.stringNode(enumerated.wireOf().get(value));
        }
        if (shape instanceof Shape.Array array) {
            ArrayNode list = JSON.arrayNode();
            for (Object item : (List<?>) value) {
                list.add(write(array.items(), item));
            }
            return list;
        }
        if (shape instanceof Shape.Any) {
            return (JsonNode) value;
        }
        if (shape instanceof Shape.Obj obj) {
            Tag kind = obj.type().getAnnotation(Tag.class);
            return object(
                    obj,
                    value,
                    kind == null ? Optional.empty() : Optional.of("kind"),
                    kind == null ? Optional.empty() : Optional.of(kind.value()));
        }
        if (shape instanceof Shape.Union union) {
            return variant(union, value);
        }
        throw new IllegalStateException("unknown shape " + shape);
    }

    private static JsonNode variant(Shape.Union union, Object value) {
        for (Shape.Variant variant : union.variants()) {
            if (variant.shape().type() == value.getClass()) {
                switch (union.style()) {
                    case TAGGED:
                        return object(
                                variant.shape(), value, Optional.of(union.tagField()), Optional.of(variant.tag()));
                    case EXTERNAL:
                        if (variant.shape().fields().isEmpty()) {
                            return JSON.stringNode(variant.tag());
                        }
                        ObjectNode wrapper = JSON.objectNode();
                        wrapper.set(variant.tag(), object(variant.shape(), value, Optional.empty(), Optional.empty()));
                        return wrapper;
                    default:
                        return object(variant.shape(), value, Optional.empty(), Optional.empty());
                }
            }
        }
        throw new IllegalArgumentException(value.getClass().getName() + " is not a variant of "
                + union.type().getName());
    }

    private static ObjectNode object(Shape.Obj obj, Object value, Optional<String> tagField, Optional<String> tag) {
        ObjectNode node = JSON.objectNode();
        tagField.ifPresent(field -> node.put(field, tag.orElseThrow()));
        for (Shape.Field field : obj.fields()) {
            Object component = get(field, value);
            if (field.inline()) {
                Shape.Obj inner = (Shape.Obj) field.shape();
                Optional<String> kind = Optional.ofNullable(inner.type().getAnnotation(Tag.class))
                        .map(Tag::value)
                        .filter(k -> !node.has("kind"));
                object(inner, component, kind.map(k -> "kind"), kind)
                        .properties()
                        .forEach(e -> node.set(e.getKey(), e.getValue()));
            } else if (field.optional()) {
                Optional<?> present = (Optional<?>) component;
                node.set(field.name(), present.isPresent() ? write(field.shape(), present.get()) : JSON.nullNode());
            } else if (component == null) {
                throw new IllegalArgumentException(
                        obj.type().getSimpleName() + "." + field.name() + " is null; use Optional");
            } else {
                node.set(field.name(), write(field.shape(), component));
            }
        }
        return node;
    }

    private static Object get(Shape.Field field, Object value) {
        try {
            return field.accessor().invoke(value);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String text(Object value) {
        try {
            return (String)
                    value.getClass().getRecordComponents()[0].getAccessor().invoke(value);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException(e);
        }
    }
}
