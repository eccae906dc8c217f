package dev.lomicontrol.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Arguments derived from a tool's declaration, valid and invalid, for tests that hold the helper
 * and the broker to the same verdicts: the smallest valid call (per form of a root union), the
 * fullest one, {@code null} for each optional field, and one breakage per field (unknown field,
 * missing, wrong type, too long, out of range).
 */
public final class ArgumentSamples {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final List<String> CANDIDATES = List.of(
            "a",
            "a.txt",
            "src/a.txt",
            "x1",
            "1",
            "ab",
            "refs/heads/main",
            "main",
            "https://example.test/",
            "*.txt",
            "0",
            "a:b",
            "123e4567-e89b-12d3-a456-426614174000",
            "com.example.app",
            "Enter",
            "a@example.com",
            "/home/u/project",
            "art-0123456789abcdef",
            "doc-0123456789abcdef",
            "doc-0123456789abcdef:1");

    /** One call: what it is, and the arguments. */
    public record Sample(String label, JsonNode arguments) {}

    private ArgumentSamples() {}

    public static List<Sample> of(ToolSpec<?> spec) {
        List<Sample> samples = new ArrayList<>();
        Shape root = Shapes.of(spec.input());
        List<Shape.Obj> forms = new ArrayList<>();
        if (root instanceof Shape.Union union) {
            union.variants().forEach(v -> forms.add(v.shape()));
        } else {
            forms.add((Shape.Obj) root);
        }
        for (Shape.Obj form : forms) {
            String name = forms.size() > 1 ? " (" + form.type().getSimpleName() + ")" : "";
            ObjectNode minimal = object(form, false);
            ObjectNode full = object(form, true);
            samples.add(new Sample("minimal" + name, minimal));
            samples.add(new Sample("full" + name, full));
            ObjectNode unknown = minimal.deepCopy();
            unknown.put("notAField", 1);
            samples.add(new Sample("unknown field" + name, unknown));
            for (Shape.Field field : form.fields()) {
                if (!field.required()) {
                    ObjectNode nulled = full.deepCopy();
                    nulled.putNull(field.name());
                    samples.add(new Sample(field.name() + ": null" + name, nulled));
                } else {
                    ObjectNode missing = minimal.deepCopy();
                    missing.remove(field.name());
                    samples.add(new Sample(field.name() + ": missing" + name, missing));
                }
                for (Map.Entry<String, JsonNode> broken :
                        breakages(field.shape()).entrySet()) {
                    ObjectNode copy = full.deepCopy();
                    copy.set(field.name(), broken.getValue());
                    samples.add(new Sample(field.name() + ": " + broken.getKey() + name, copy));
                }
            }
        }
        return samples;
    }

    private static ObjectNode object(Shape.Obj obj, boolean full) {
        ObjectNode node = JSON.objectNode();
        for (Shape.Field field : obj.fields()) {
            if (field.required() || full) {
                node.set(field.name(), value(field.shape(), full));
            }
        }
        return node;
    }

    static JsonNode value(Shape shape, boolean full) {
        if (shape instanceof Shape.Str str) {
            return JSON.stringNode(string(str));
        }
        if (shape instanceof Shape.Int integer) {
            return JSON.numberNode(Math.max(integer.min(), Math.min(integer.max(), 1)));
        }
        if (shape instanceof Shape.Bool) {
            return JSON.booleanNode(false);
        }
        if (shape instanceof Shape.Enumerated enumerated) {
            return JSON.stringNode(enumerated.byWire().keySet().iterator().next());
        }
        if (shape instanceof Shape.Array array) {
            var list = JSON.arrayNode();
            for (int i = 0; i < Math.max(array.min(), full ? 1 : 0) && i < array.max(); i++) {
                list.add(value(array.items(), full));
            }
            return list;
        }
        if (shape instanceof Shape.Any) {
            return JSON.stringNode("any");
        }
        if (shape instanceof Shape.Obj obj) {
            return object(obj, full);
        }
        Shape.Union union = (Shape.Union) shape;
        Shape.Variant first = union.variants().get(0);
        switch (union.style()) {
            case TAGGED: {
                ObjectNode node = JSON.objectNode();
                node.put(union.tagField(), first.tag());
                node.setAll(object(first.shape(), full));
                return node;
            }
            case EXTERNAL:
                if (first.shape().fields().isEmpty()) {
                    return JSON.stringNode(first.tag());
                }
                ObjectNode wrapper = JSON.objectNode();
                wrapper.set(first.tag(), object(first.shape(), full));
                return wrapper;
            default:
                return object(first.shape(), full);
        }
    }

    /** A string the shape accepts: one built from its pattern, a known candidate, or 'a' repeated to the minimum length. */
    static String string(Shape.Str str) {
        List<String> tries = new ArrayList<>();
        str.pattern().ifPresent(p -> {
            try {
                tries.add(fromPattern(p));
            } catch (RuntimeException unsupported) {
                // a pattern outside the simple subset: the candidates below
            }
        });
        tries.addAll(CANDIDATES);
        tries.add("a".repeat(Math.max(1, str.min())));
        tries.add("a".repeat(Math.max(1, str.min())).replace('a', 'b'));
        tries.add("0123456789abcdef".repeat(4).substring(0, Math.min(64, Math.max(1, str.min()))));
        for (String candidate : tries) {
            int length = candidate.codePointCount(0, candidate.length());
            if (length >= str.min()
                    && length <= str.max()
                    && str.pattern()
                            .map(p -> Pattern.compile(p).matcher(candidate).matches())
                            .orElse(true)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no sample string for " + str);
    }

    /**
     * One string matching a simple pattern: literals, escapes, {@code [...]} classes (their first
     * member, or a safe letter for a negated class), groups and alternatives (the first),
     * quantifiers {@code ? * + {n} {n,m}} (their minimum, at least one for {@code +}).
     */
    static String fromPattern(String pattern) {
        StringBuilder out = new StringBuilder();
        int[] at = {0};
        sequence(pattern, at, out);
        return out.toString();
    }

    private static void sequence(String p, int[] at, StringBuilder out) {
        while (at[0] < p.length()) {
            char c = p.charAt(at[0]);
            if (c == '|') {
                int depth = 0;
                while (at[0] < p.length() && !(depth == 0 && p.charAt(at[0]) == ')')) {
                    depth += p.charAt(at[0]) == '(' ? 1 : p.charAt(at[0]) == ')' ? -1 : 0;
                    at[0]++;
                }
                return;
            }
            if (c == ')') {
                return;
            }
            StringBuilder atom = new StringBuilder();
            if (c == '(') {
                at[0]++;
                if (p.startsWith("?:", at[0])) {
                    at[0] += 2;
                }
                sequence(p, at, atom);
                at[0]++;
            } else if (c == '[') {
                int end = p.indexOf(']', at[0] + 2);
                String body = p.substring(at[0] + 1, end);
                atom.append(body.startsWith("^") ? 'a' : body.charAt(0) == '\\' ? body.charAt(1) : body.charAt(0));
                at[0] = end + 1;
            } else if (c == '\\') {
                char e = p.charAt(at[0] + 1);
                atom.append(e == 'd' ? '0' : e == 'w' ? 'a' : e == 's' ? ' ' : e);
                at[0] += 2;
            } else if (c == '.') {
                atom.append('a');
                at[0]++;
            } else {
                atom.append(c);
                at[0]++;
            }
            int times = 1;
            if (at[0] < p.length()) {
                char q = p.charAt(at[0]);
                if (q == '?' || q == '*') {
                    times = 0;
                    at[0]++;
                } else if (q == '+') {
                    at[0]++;
                } else if (q == '{') {
                    int end = p.indexOf('}', at[0]);
                    times = Integer.parseInt(p.substring(at[0] + 1, end).split(",")[0]);
                    at[0] = end + 1;
                }
            }
            out.append(atom.toString().repeat(Math.max(times, c == '(' ? times : times)));
        }
    }

    private static Map<String, JsonNode> breakages(Shape shape) {
        Map<String, JsonNode> broken = new java.util.LinkedHashMap<>();
        if (shape instanceof Shape.Any) {
            return broken;
        }
        broken.put(
                "wrong type",
                shape instanceof Shape.Str || shape instanceof Shape.Enumerated
                        ? JSON.numberNode(7)
                        : JSON.stringNode("7"));
        if (shape instanceof Shape.Str str && str.max() < 100_000) {
            broken.put("too long", JSON.stringNode("a".repeat(str.max() + 1)));
        }
        if (shape instanceof Shape.Int integer && integer.max() < Integer.MAX_VALUE) {
            broken.put("too large", JSON.numberNode(integer.max() + 1));
        }
        if (shape instanceof Shape.Enumerated) {
            broken.put("not a value", JSON.stringNode("no-such-value"));
        }
        return broken;
    }
}
