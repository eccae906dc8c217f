package dev.lomicontrol.tools;

import dev.lomicontrol.core.WireString;
import dev.lomicontrol.json.StreamingJson;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;

/** Works out (and caches) the {@link Shape} of declared wire types from their Java declaration and annotations. */
final class Shapes {

    private static final Map<Class<?>, Shape> CACHE = new ConcurrentHashMap<>();
    /** Defaults are parsed without a mapper: the helper derives these shapes at start-up (ADR 0015). */
    private static final JsonFactory JSON = JsonFactory.builder().build();

    private Shapes() {}

    static Shape of(Class<?> type) {
        Shape known = CACHE.get(type);
        if (known != null) {
            return known;
        }
        Shape shape = derive(type);
        CACHE.put(type, shape);
        return shape;
    }

    private static Shape derive(Class<?> type) {
        if (type == String.class) {
            return new Shape.Str(0, Integer.MAX_VALUE, Optional.empty(), Optional.empty(), String.class);
        }
        if (type == int.class || type == Integer.class) {
            return new Shape.Int(Integer.MIN_VALUE, Integer.MAX_VALUE, type);
        }
        if (type == long.class || type == Long.class) {
            return new Shape.Int(Long.MIN_VALUE, Long.MAX_VALUE, type);
        }
        if (type == boolean.class || type == Boolean.class) {
            return new Shape.Bool();
        }
        if (JsonNode.class.isAssignableFrom(type)) {
            return new Shape.Any();
        }
        if (type.isEnum()) {
            return enumerated(type);
        }
        WireString string = type.getAnnotation(WireString.class);
        if (string != null) {
            requireOneString(type);
            return new Shape.Str(
                    string.minLength(),
                    string.maxLength(),
                    Optional.of(string.pattern()),
                    text(string.description()),
                    type);
        }
        if (type.isRecord()) {
            return object(type);
        }
        if (type.isInterface() && type.isSealed()) {
            return union(type);
        }
        throw new IllegalArgumentException("no wire shape for " + type.getName());
    }

    private static Shape enumerated(Class<?> type) {
        Map<String, Object> byWire = new LinkedHashMap<>();
        Map<Object, String> wireOf = new LinkedHashMap<>();
        for (Object constant : type.getEnumConstants()) {
            String name = ((Enum<?>) constant).name();
            String wire;
            try {
                WireName spelled = type.getField(name).getAnnotation(WireName.class);
                wire = spelled != null ? spelled.value() : name.toLowerCase(java.util.Locale.ROOT);
            } catch (NoSuchFieldException e) {
                throw new IllegalStateException(e);
            }
            byWire.put(wire, constant);
            wireOf.put(constant, wire);
        }
        return new Shape.Enumerated(type, byWire, wireOf);
    }

    private static void requireOneString(Class<?> type) {
        RecordComponent[] components = type.getRecordComponents();
        if (components == null || components.length != 1 || components[0].getType() != String.class) {
            throw new IllegalArgumentException(type.getName() + ": a @WireString type is a record of one String");
        }
    }

    private static Shape.Obj object(Class<?> type) {
        RecordComponent[] components = type.getRecordComponents();
        List<Shape.Field> fields = new ArrayList<>();
        Class<?>[] parameterTypes = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            fields.add(field(type, components[i]));
            parameterTypes[i] = components[i].getType();
        }
        try {
            Constructor<?> constructor = type.getDeclaredConstructor(parameterTypes);
            constructor.setAccessible(true);
            return new Shape.Obj(type, List.copyOf(fields), constructor, doc(type.getAnnotation(Doc.class)));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(type + " has no canonical constructor", e);
        }
    }

    private static Shape.Field field(Class<?> owner, RecordComponent component) {
        Type generic = component.getGenericType();
        boolean optional = component.getType() == Optional.class;
        Type valueType = optional ? argument(generic, owner, component) : generic;
        Shape shape = refine(shapeOf(valueType, owner, component), component);
        Optional<JsonNode> defaultValue = Optional.ofNullable(component.getAnnotation(Default.class))
                .map(d -> StreamingJson.parse(JSON, d.value()));
        if (optional && defaultValue.isPresent()) {
            throw new IllegalArgumentException(
                    owner.getName() + "." + component.getName() + ": an Optional field has no default");
        }
        component.getAccessor().setAccessible(true);
        boolean inline = component.isAnnotationPresent(Inline.class);
        if (inline && (optional || !(shape instanceof Shape.Obj))) {
            throw new IllegalArgumentException(
                    owner.getName() + "." + component.getName() + ": @Inline takes a record component");
        }
        return new Shape.Field(
                component.getName(),
                shape,
                optional,
                defaultValue,
                doc(component.getAnnotation(Doc.class)),
                component.getAccessor(),
                inline);
    }

    private static Shape shapeOf(Type type, Class<?> owner, RecordComponent component) {
        if (type instanceof Class<?> plain) {
            if (plain == List.class || plain == Optional.class) {
                throw new IllegalArgumentException(
                        owner.getName() + "." + component.getName() + ": raw " + plain.getSimpleName());
            }
            return of(plain);
        }
        if (type instanceof ParameterizedType parameterized && parameterized.getRawType() == List.class) {
            Items items = component.getAnnotation(Items.class);
            Shape element = shapeOf(parameterized.getActualTypeArguments()[0], owner, component);
            return new Shape.Array(
                    element, items == null ? 0 : items.min(), items == null ? Integer.MAX_VALUE : items.max());
        }
        throw new IllegalArgumentException(owner.getName() + "." + component.getName() + ": unsupported type " + type);
    }

    /** Field annotations narrow a plain string or integer (an annotated List narrows its elements, @Items the list). */
    private static Shape refine(Shape shape, RecordComponent component) {
        if (shape instanceof Shape.Array array) {
            return new Shape.Array(refine(array.items(), component), array.min(), array.max());
        }
        Len len = component.getAnnotation(Len.class);
        Matches matches = component.getAnnotation(Matches.class);
        Range range = component.getAnnotation(Range.class);
        if (shape instanceof Shape.Str str && (len != null || matches != null)) {
            if (str.type() != String.class) {
                throw new IllegalArgumentException(component + ": @Len/@Matches belong on plain String fields");
            }
            return new Shape.Str(
                    len == null ? str.min() : len.min(),
                    len == null ? str.max() : len.max(),
                    matches == null ? str.pattern() : Optional.of(matches.value()),
                    str.description(),
                    String.class);
        }
        if (shape instanceof Shape.Int integer && range != null) {
            return new Shape.Int(
                    Math.max(integer.min(), range.min()), Math.min(integer.max(), range.max()), integer.type());
        }
        if (len != null || matches != null || range != null) {
            throw new IllegalArgumentException(component + ": annotation does not fit its type");
        }
        return shape;
    }

    private static Type argument(Type generic, Class<?> owner, RecordComponent component) {
        if (generic instanceof ParameterizedType parameterized) {
            return parameterized.getActualTypeArguments()[0];
        }
        throw new IllegalArgumentException(owner.getName() + "." + component.getName() + ": raw Optional");
    }

    private static Shape union(Class<?> type) {
        Tagged tagged = type.getAnnotation(Tagged.class);
        boolean untagged = type.isAnnotationPresent(Untagged.class);
        boolean external = type.isAnnotationPresent(External.class);
        if ((tagged != null ? 1 : 0) + (untagged ? 1 : 0) + (external ? 1 : 0) != 1) {
            throw new IllegalArgumentException(
                    type.getName() + ": a union is exactly one of @Tagged, @Untagged, @External");
        }
        List<Shape.Variant> variants = new ArrayList<>();
        for (Class<?> permitted : type.getPermittedSubclasses()) {
            Tag tag = permitted.getAnnotation(Tag.class);
            if (!untagged && tag == null) {
                throw new IllegalArgumentException(permitted.getName() + ": a variant of a tagged union needs @Tag");
            }
            if (!permitted.isRecord()) {
                throw new IllegalArgumentException(permitted.getName() + ": variants are records");
            }
            variants.add(new Shape.Variant(tag == null ? permitted.getSimpleName() : tag.value(), object(permitted)));
        }
        Shape.Style style =
                tagged != null ? Shape.Style.TAGGED : untagged ? Shape.Style.UNTAGGED : Shape.Style.EXTERNAL;
        return new Shape.Union(
                type,
                style,
                tagged != null ? tagged.value() : "",
                List.copyOf(variants),
                doc(type.getAnnotation(Doc.class)));
    }

    private static Optional<String> doc(Doc doc) {
        return doc == null ? Optional.empty() : Optional.of(doc.value());
    }

    private static Optional<String> text(String value) {
        return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    /** For messages: the wire names of a union's variants. */
    static String tags(Shape.Union union) {
        return String.join(
                ", ",
                Arrays.asList(union.variants().stream().map(Shape.Variant::tag).toArray(String[]::new)));
    }
}
