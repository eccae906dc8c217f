package dev.lomicontrol.tools;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The wire shape of a Java type, worked out once from its declaration ({@link Shapes}): what the
 * published schema, the argument binder and the result encoder all follow, so the three can never
 * disagree.
 */
sealed interface Shape {

    /** A JSON string: plain {@code String} or a one-string record ({@code make}/{@code text} convert). */
    record Str(int min, int max, Optional<String> pattern, Optional<String> description, Class<?> type)
            implements Shape {
        public Str {
            pattern = pattern.filter(p -> !p.isEmpty());
        }
    }

    /** A JSON integer ({@code int}, {@code long} or their boxes). */
    record Int(long min, long max, Class<?> type) implements Shape {}

    record Bool() implements Shape {}

    /** A string out of a fixed set: a Java enum by wire name. */
    record Enumerated(Class<?> type, Map<String, Object> byWire, Map<Object, String> wireOf) implements Shape {}

    record Array(Shape items, int min, int max) implements Shape {}

    /** Any JSON value ({@link JsonNode}), passed through. */
    record Any() implements Shape {}

    /** A record: closed when it is an input, open (append-only) when it is an output. */
    record Obj(Class<?> type, List<Field> fields, Constructor<?> constructor, Optional<String> description)
            implements Shape {

        Optional<Field> field(String name) {
            return fields.stream().filter(f -> f.name().equals(name)).findFirst();
        }
    }

    /** A sealed interface of records. */
    record Union(Class<?> type, Style style, String tagField, List<Variant> variants, Optional<String> description)
            implements Shape {}

    enum Style {
        TAGGED,
        UNTAGGED,
        EXTERNAL
    }

    record Variant(String tag, Obj shape) {}

    /**
     * One component of a record.
     *
     * @param optional the component is an {@code Optional} (absent and null are empty)
     * @param defaultValue what an absent field becomes (the field is then optional too)
     * @param inline output only: the component's own fields are written into the enclosing object ({@link Inline})
     */
    record Field(
            String name,
            Shape shape,
            boolean optional,
            Optional<JsonNode> defaultValue,
            Optional<String> description,
            Method accessor,
            boolean inline) {

        boolean required() {
            return !optional && defaultValue.isEmpty();
        }
    }
}
