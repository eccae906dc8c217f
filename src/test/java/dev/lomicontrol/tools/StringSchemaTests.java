package dev.lomicontrol.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.mcp.SchemaVerdicts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * The compact string schema accepts and refuses exactly what the declared rule does (code-point
 * length in range, pattern matched whole), and what the grouped, anchored schema with both lengths
 * did: checked on seeded random strings for every string shape the catalog's inputs have.
 */
class StringSchemaTests {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final int GUIDED = 48;
    private static final String OUTSIDERS = " \n\r\t\u0000\u007f\u0085\u2028é€😀/\\$[]|-_.:";

    @Test
    void theCompactFormsAreTheOnesAgentsRead() {
        assertThat(compact(1, 128, "[A-Za-z0-9._:-]+")).isEqualTo("{\"pattern\":\"^[A-Za-z0-9._:-]{1,128}$\"}");
        assertThat(compact(64, 64, "[0-9a-f]{64}")).isEqualTo("{\"pattern\":\"^[0-9a-f]{64}$\"}");
        assertThat(compact(1, 19, "0|[1-9][0-9]{0,18}")).isEqualTo("{\"pattern\":\"^(?:0|[1-9][0-9]{0,18})$\"}");
        assertThat(compact(1, 256, "[^\\p{Cc}]+")).isEqualTo("{\"pattern\":\"^[^\\\\p{Cc}]{1,256}$\"}");
        assertThat(compact(0, 4096, "[^\\r\\u0000]*")).isEqualTo("{\"pattern\":\"^[^\\\\r\\\\u0000]{0,4096}$\"}");
        assertThat(compact(1, 4096, "[^/\\u0000\\\\][^\\u0000\\\\]*"))
                .isEqualTo("{\"pattern\":\"^[^/\\\\u0000\\\\\\\\][^\\\\u0000\\\\\\\\]{0,4095}$\"}");
        assertThat(compact(1, 256, "(?=.*[^\\s])[^\\p{Cc}]+"))
                .isEqualTo("{\"pattern\":\"^(?=.*[^\\\\s])[^\\\\p{Cc}]{1,256}$\"}");
        assertThat(compact(0, 255, "refs/heads/[^\\u0000-\\u0020\\u007f]+"))
                .isEqualTo("{\"pattern\":\"^refs/heads/[^\\\\u0000-\\\\u0020\\\\u007f]{1,244}$\"}");
        assertThat(compact(1, 128, "[A-Za-z0-9_]+")).isEqualTo("{\"pattern\":\"^[A-Za-z0-9_]{1,128}$\"}");
    }

    @Test
    void aPatternWithFlagsIsPublishedAsWrittenWithBothLengths() {
        assertThat(compact(1, 2048, "(?i:https?)://[^\\p{Cc}]+"))
                .isEqualTo("{\"minLength\":1,\"maxLength\":2048,\"pattern\":\"^(?:(?i:https?)://[^\\\\p{Cc}]+)$\"}");
    }

    @Test
    void everyStringRuleOfTheCatalogAcceptsExactlyWhatItsFullFormAccepts() {
        Set<Shape.Str> rules = new LinkedHashSet<>();
        for (ToolSpec<?> spec : ToolCatalog.standard().all()) {
            collect(Shapes.of(spec.input()), rules);
        }
        assertThat(rules).hasSizeGreaterThan(20);
        Random random = new Random(39);
        Map<String, Integer> accepted = new LinkedHashMap<>();
        for (Shape.Str rule : rules) {
            Pattern declared = Pattern.compile(rule.pattern().orElse("(?s).*"));
            ObjectNode compact = SchemaWriter.schema(rule, SchemaWriter.Mode.INPUT);
            ObjectNode full = full(rule);
            for (String sample : samples(rule, declared, random)) {
                boolean expected = fits(rule, declared, sample);
                StringNode value = JSON.stringNode(sample);
                assertThat(SchemaVerdicts.firstViolation(compact, value).isEmpty())
                        .as("%s on %s", compact, printable(sample))
                        .isEqualTo(expected);
                assertThat(SchemaVerdicts.firstViolation(full, value).isEmpty())
                        .as("%s on %s", full, printable(sample))
                        .isEqualTo(expected);
                accepted.merge(compact.toString(), expected ? 1 : 0, Integer::sum);
            }
        }
        assertThat(accepted.values()).as("rules no sample fits: %s", accepted).allMatch(n -> n > 0);
    }

    /** The binder's rule: a length in code points within bounds, and the declared pattern matched whole. */
    private static boolean fits(Shape.Str rule, Pattern declared, String text) {
        int length = text.codePointCount(0, text.length());
        return length >= rule.min()
                && length <= rule.max()
                && declared.matcher(text).matches();
    }

    /** The form published before: both lengths and the pattern grouped and anchored. */
    private static ObjectNode full(Shape.Str rule) {
        ObjectNode schema = JSON.objectNode();
        schema.put("type", "string");
        if (rule.min() > 0) {
            schema.put("minLength", rule.min());
        }
        if (rule.max() < Integer.MAX_VALUE) {
            schema.put("maxLength", rule.max());
        }
        rule.pattern().ifPresent(p -> schema.put("pattern", "^(?:" + p + ")$"));
        return schema;
    }

    /**
     * Strings around the rule: ones grown character by character along the pattern (so most fit it),
     * at lengths near both bounds, then with one character changed, one added or removed, a line
     * terminator appended, or outsiders mixed in.
     */
    private static List<String> samples(Shape.Str rule, Pattern declared, Random random) {
        List<String> samples = new ArrayList<>(List.of("", "\n", "a", "a\n"));
        int longest = rule.max() == Integer.MAX_VALUE ? rule.min() + 300 : rule.max();
        for (int round = 0; round < 40; round++) {
            int target = switch (round % 4) {
                case 0 -> rule.min();
                case 1 -> longest;
                case 2 -> longest + 1;
                default ->
                    rule.min() + random.nextInt(Math.max(1, Math.min(longest, rule.min() + 200) - rule.min() + 1));
            };
            String grown = grow(declared, target, random);
            samples.add(grown);
            samples.add(grown + "\n");
            samples.add(grown.isEmpty() ? grown : grown.substring(0, grown.length() - 1));
            samples.add(grown.isEmpty() ? "a" : grown + grown.charAt(grown.length() - 1));
            samples.add(mutate(grown, random));
        }
        return samples;
    }

    /**
     * A string of about {@code target} characters: for the first {@value #GUIDED} each step picks a
     * printable character that keeps a match possible, after that the last one repeats.
     */
    private static String grow(Pattern declared, int target, Random random) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < target; i++) {
            if (i >= GUIDED) {
                text.append(text.charAt(text.length() - 1));
                continue;
            }
            List<Character> viable = new ArrayList<>();
            for (char c = ' '; c < 127; c++) {
                var matcher = declared.matcher(text.toString() + c);
                if (matcher.matches() || matcher.hitEnd()) {
                    viable.add(c);
                }
            }
            if (viable.isEmpty()) {
                break;
            }
            text.append(viable.get(random.nextInt(viable.size())));
        }
        return text.toString();
    }

    private static String mutate(String text, Random random) {
        StringBuilder mutated = new StringBuilder(text);
        String outsider = String.valueOf(Character.toChars(OUTSIDERS.codePointAt(
                OUTSIDERS.offsetByCodePoints(0, random.nextInt(OUTSIDERS.codePointCount(0, OUTSIDERS.length()))))));
        int at = mutated.isEmpty() ? 0 : random.nextInt(mutated.length());
        if (random.nextBoolean() && !mutated.isEmpty() && !Character.isSurrogate(mutated.charAt(at))) {
            mutated.replace(at, at + 1, outsider);
        } else {
            mutated.insert(at, outsider);
        }
        return mutated.toString();
    }

    private static void collect(Shape shape, Set<Shape.Str> rules) {
        if (shape instanceof Shape.Str str) {
            rules.add(str);
        } else if (shape instanceof Shape.Array array) {
            collect(array.items(), rules);
        } else if (shape instanceof Shape.Obj obj) {
            obj.fields().forEach(field -> collect(field.shape(), rules));
        } else if (shape instanceof Shape.Union union) {
            union.variants().forEach(variant -> collect(variant.shape(), rules));
        }
    }

    private static String compact(int min, int max, String pattern) {
        ObjectNode schema = StringSchema.of(min, max, Optional.of(pattern));
        return schema.toString();
    }

    private static String printable(String text) {
        return JSON.stringNode(text).toString();
    }
}
