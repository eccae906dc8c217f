package dev.lomicontrol.tools;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Publishes a {@link Shape} as JSON Schema (the subset the helper's validator knows). Inputs are
 * closed objects whose optional fields also accept {@code null}; outputs are open objects (wire
 * types grow append-only) whose every field is required, an empty value being {@code null}.
 */
final class SchemaWriter {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    enum Mode {
        INPUT,
        OUTPUT
    }

    private SchemaWriter() {}

    /** The root of a tool's input: one closed object (a root union is flattened). */
    static ObjectNode input(Class<?> type) {
        Shape shape = Shapes.of(type);
        if (shape instanceof Shape.Union union && union.style() == Shape.Style.UNTAGGED) {
            return flattened(union);
        }
        if (!(shape instanceof Shape.Obj)) {
            throw new IllegalArgumentException(type + ": a tool's input is a record or an untagged union of records");
        }
        return schema(shape, Mode.INPUT);
    }

    static ObjectNode output(Class<?> type) {
        return schema(Shapes.of(type), Mode.OUTPUT);
    }

    static ObjectNode schema(Shape shape, Mode mode) {
        if (shape instanceof Shape.Str str) {
            ObjectNode schema = typed("string");
            str.description().ifPresent(d -> schema.put("description", d));
            if (mode == Mode.INPUT) {
                schema.setAll(StringSchema.of(str.min(), str.max(), str.pattern()));
            }
            return schema;
        }
        if (shape instanceof Shape.Int integer) {
            ObjectNode schema = typed("integer");
            if (mode == Mode.INPUT && integer.min() > Integer.MIN_VALUE && integer.min() != Long.MIN_VALUE) {
                schema.put("minimum", integer.min());
            }
            if (mode == Mode.INPUT && integer.max() != Integer.MAX_VALUE && integer.max() != Long.MAX_VALUE) {
                schema.put("maximum", integer.max());
            }
            return schema;
        }
        if (shape instanceof Shape.Bool) {
            return typed("boolean");
        }
        if (shape instanceof Shape.Enumerated enumerated) {
            ObjectNode schema = typed("string");
            ArrayNode values = schema.putArray("enum");
            enumerated.byWire().keySet().forEach(values::add);
            return schema;
        }
        if (shape instanceof Shape.Array array) {
            ObjectNode schema = typed("array");
            schema.set("items", schema(array.items(), mode));
            if (mode == Mode.INPUT && array.min() > 0) {
                schema.put("minItems", array.min());
            }
            if (mode == Mode.INPUT && array.max() < Integer.MAX_VALUE) {
                schema.put("maxItems", array.max());
            }
            return schema;
        }
        if (shape instanceof Shape.Any) {
            return JSON.objectNode();
        }
        if (shape instanceof Shape.Obj obj) {
            Tag kind = mode == Mode.OUTPUT ? obj.type().getAnnotation(Tag.class) : null;
            return object(
                    obj,
                    mode,
                    kind == null ? Optional.empty() : Optional.of("kind"),
                    kind == null ? Optional.empty() : Optional.of(kind.value()));
        }
        if (shape instanceof Shape.Union union) {
            return union(union, mode);
        }
        throw new IllegalStateException("unknown shape " + shape);
    }

    /** A record's schema; a tagged variant also gets its discriminator ({@code tagField} = {@code tag}), first and required. */
    private static ObjectNode object(Shape.Obj obj, Mode mode, Optional<String> tagField, Optional<String> tag) {
        ObjectNode schema = typed("object");
        obj.description().ifPresent(d -> schema.put("description", d));
        ObjectNode properties = schema.putObject("properties");
        List<String> required = new ArrayList<>();
        tagField.ifPresent(name -> {
            ObjectNode constant = JSON.objectNode();
            constant.put("const", tag.orElseThrow());
            properties.set(name, constant);
            required.add(name);
        });
        for (Shape.Field field : obj.fields()) {
            if (field.inline()) {
                Shape.Obj innerShape = (Shape.Obj) field.shape();
                Optional<String> kind = Optional.ofNullable(innerShape.type().getAnnotation(Tag.class))
                        .map(Tag::value)
                        .filter(k -> !properties.has("kind"));
                ObjectNode inner = object(innerShape, mode, kind.map(k -> "kind"), kind);
                inner.get("properties").properties().forEach(e -> properties.set(e.getKey(), e.getValue()));
                inner.path("required").forEach(name -> required.add(name.stringValue()));
                continue;
            }
            properties.set(field.name(), field(field, mode));
            if (mode == Mode.OUTPUT || field.required()) {
                required.add(field.name());
            }
        }
        if (!required.isEmpty()) {
            ArrayNode list = schema.putArray("required");
            required.forEach(list::add);
        }
        if (mode == Mode.INPUT) {
            schema.put("additionalProperties", false);
        }
        return schema;
    }

    private static ObjectNode field(Shape.Field field, Mode mode) {
        ObjectNode schema = schema(field.shape(), mode).deepCopy();
        field.description().ifPresent(d -> schema.put("description", d));
        boolean nullable = mode == Mode.INPUT ? !field.required() : field.optional();
        field.defaultValue().ifPresent(value -> schema.set("default", value));
        return nullable ? nullable(schema) : schema;
    }

    /** The same schema, also allowing null. */
    static ObjectNode nullable(ObjectNode schema) {
        JsonNode type = schema.get("type");
        if (type != null && type.isString()) {
            schema.putArray("type").add(type.stringValue()).add("null");
            if (schema.has("enum")) {
                ((ArrayNode) schema.get("enum")).addNull();
            }
            return schema;
        }
        if (schema.has("anyOf")) {
            ((ArrayNode) schema.get("anyOf")).add(typed("null"));
            return schema;
        }
        if (schema.isEmpty()) {
            return schema;
        }
        ObjectNode wrapper = JSON.objectNode();
        wrapper.putArray("anyOf").add(schema).add(typed("null"));
        return wrapper;
    }

    private static ObjectNode union(Shape.Union union, Mode mode) {
        ObjectNode schema = variants(union, mode);
        if (mode == Mode.INPUT && union.style() == Shape.Style.TAGGED) {
            ObjectNode compact = taggedOnce(union);
            if (compact.toString().length() < schema.toString().length()) {
                return compact;
            }
        }
        return schema;
    }

    /**
     * A tagged union of an input with each field said once: one closed object whose properties are
     * the tag (an {@code enum} of the tags) and every variant's fields, and an {@code anyOf} of one
     * branch per variant that fixes the tag and names the fields it requires. A field whose schema
     * differs between variants is {@code {}} at the top and has its own schema in each branch that has
     * it. What the variants' separate objects say beyond this — that a variant takes no field of
     * another — the binder enforces (INVALID_ARGUMENT naming the field), as for a flattened root
     * union. {@link #union} publishes it when it is the shorter form.
     */
    private static ObjectNode taggedOnce(Shape.Union union) {
        String tag = union.tagField();
        List<ObjectNode> variants = new ArrayList<>();
        for (Shape.Variant variant : union.variants()) {
            variants.add(object(variant.shape(), Mode.INPUT, Optional.of(tag), Optional.of(variant.tag())));
        }
        Map<String, ObjectNode> fields = new LinkedHashMap<>();
        Set<String> differing = new HashSet<>();
        Set<String> described = new HashSet<>();
        for (ObjectNode variant : variants) {
            variant.get("properties").properties().forEach(entry -> {
                String name = entry.getKey();
                ObjectNode field = (ObjectNode) entry.getValue();
                if (name.equals(tag)) {
                    return;
                }
                ObjectNode known = fields.putIfAbsent(name, field);
                if (known == null) {
                    described.add(name);
                    return;
                }
                if (!withoutDescription(known).equals(withoutDescription(field))) {
                    differing.add(name);
                } else if (!known.path("description").equals(field.path("description"))) {
                    described.remove(name);
                }
            });
        }
        ObjectNode schema = typed("object");
        union.description().ifPresent(d -> schema.put("description", d));
        ObjectNode properties = schema.putObject("properties");
        ArrayNode tags = properties.putObject(tag).putArray("enum");
        union.variants().forEach(v -> tags.add(v.tag()));
        fields.forEach((name, field) -> properties.set(
                name,
                differing.contains(name)
                        ? JSON.objectNode()
                        : described.contains(name) ? field : withoutDescription(field)));
        schema.putArray("required").add(tag);
        schema.put("additionalProperties", false);
        ArrayNode branches = schema.putArray("anyOf");
        for (int i = 0; i < variants.size(); i++) {
            ObjectNode variant = variants.get(i);
            ObjectNode branch = branches.addObject();
            ObjectNode own = branch.putObject("properties");
            own.putObject(tag).put("const", union.variants().get(i).tag());
            variant.get("properties").properties().forEach(entry -> {
                if (differing.contains(entry.getKey())) {
                    own.set(entry.getKey(), entry.getValue());
                }
            });
            ArrayNode required = JSON.arrayNode();
            variant.path("required").forEach(name -> {
                if (!name.stringValue().equals(tag)) {
                    required.add(name);
                }
            });
            if (!required.isEmpty()) {
                branch.set("required", required);
            }
        }
        return schema;
    }

    private static ObjectNode withoutDescription(ObjectNode field) {
        ObjectNode copy = field.deepCopy();
        copy.remove("description");
        return copy;
    }

    /** A union as one {@code anyOf} of its variants' schemas. */
    private static ObjectNode variants(Shape.Union union, Mode mode) {
        ObjectNode schema = JSON.objectNode();
        union.description().ifPresent(d -> schema.put("description", d));
        ArrayNode variants = schema.putArray("anyOf");
        for (Shape.Variant variant : union.variants()) {
            switch (union.style()) {
                case TAGGED:
                    variants.add(
                            object(variant.shape(), mode, Optional.of(union.tagField()), Optional.of(variant.tag())));
                    break;
                case EXTERNAL:
                    if (variant.shape().fields().isEmpty()) {
                        ObjectNode bare = JSON.objectNode();
                        bare.put("const", variant.tag());
                        variants.add(bare);
                    } else {
                        ObjectNode wrapper = typed("object");
                        wrapper.putObject("properties")
                                .set(variant.tag(), object(variant.shape(), mode, Optional.empty(), Optional.empty()));
                        wrapper.putArray("required").add(variant.tag());
                        if (mode == Mode.INPUT) {
                            wrapper.put("additionalProperties", false);
                        }
                        variants.add(wrapper);
                    }
                    break;
                default:
                    variants.add(object(variant.shape(), mode, Optional.empty(), Optional.empty()));
            }
        }
        return schema;
    }

    /**
     * An untagged union at the root of an input, as one closed object: every variant's fields
     * (optional unless all variants require them); the description names the forms by the fields
     * that tell them apart (a field every variant has alike is left out), and the binder enforces
     * that exactly one fits.
     */
    private static ObjectNode flattened(Shape.Union union) {
        Map<String, Shape.Field> fields = new LinkedHashMap<>();
        for (Shape.Variant variant : union.variants()) {
            for (Shape.Field field : variant.shape().fields()) {
                Shape.Field known = fields.putIfAbsent(field.name(), field);
                if (known != null && !schema(known.shape(), Mode.INPUT).equals(schema(field.shape(), Mode.INPUT))) {
                    throw differentShapes(known);
                }
            }
        }
        ObjectNode schema = typed("object");
        String forms = union.variants().stream()
                .map(v -> "{"
                        + v.shape().fields().stream()
                                .filter(f -> !common(union, f))
                                .map(f -> f.required() ? f.name() : f.name() + "?")
                                .collect(Collectors.joining(", "))
                        + "}")
                .collect(Collectors.joining(" | "));
        schema.put("description", union.description().map(d -> d + " ").orElse("") + "One of " + forms);
        ObjectNode properties = schema.putObject("properties");
        List<String> required = new ArrayList<>();
        for (Shape.Field field : fields.values()) {
            boolean everywhere = union.variants().stream()
                    .allMatch(v -> v.shape()
                            .field(field.name())
                            .filter(Shape.Field::required)
                            .isPresent());
            ObjectNode property = schema(field.shape(), Mode.INPUT).deepCopy();
            field.description().ifPresent(d -> property.put("description", d));
            field.defaultValue().ifPresent(value -> property.set("default", value));
            properties.set(field.name(), everywhere ? property : nullable(property));
            if (everywhere) {
                required.add(field.name());
            }
        }
        if (!required.isEmpty()) {
            ArrayNode list = schema.putArray("required");
            required.forEach(list::add);
        }
        schema.put("additionalProperties", false);
        return schema;
    }

    /** Whether every variant of the union has this field, required alike. */
    private static boolean common(Shape.Union union, Shape.Field field) {
        return union.variants().stream()
                .allMatch(v -> v.shape()
                        .field(field.name())
                        .filter(f -> f.required() == field.required())
                        .isPresent());
    }

    /** Two variants share a field name with different shapes: a declaration error. */
    private static IllegalArgumentException differentShapes(Shape.Field field) {
        return new IllegalArgumentException(
                "field " + field.name() + " has different shapes in the variants of one union");
    }

    private static ObjectNode typed(String type) {
        ObjectNode schema = JSON.objectNode();
        schema.put("type", type);
        return schema;
    }
}
