package dev.lomicontrol.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.testing.InteropPackages;
import dev.lomicontrol.testing.Machine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every input and output schema of the live catalog, and every {@code pattern} in them, works the
 * same in the three regular-expression dialects its readers use (issue 39): ECMAScript with the
 * {@code u} flag (the Ajv the TypeScript SDK builds, run by {@code interop/schema-portability.mjs}),
 * Python's {@code re} (jsonschema with its format checker, {@code interop/schema_portability.py})
 * and Java. Each engine compiles everything and matches the same sample strings; a failure lists
 * every tool, schema path and pattern it refused or judged differently.
 */
class SchemaPortabilityTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Characters where the dialects used to part: controls, Unicode spaces, case folds (ſ, K, İ), an astral one. */
    private static final int[] NOTABLE = {
        0x100, 0x130, 0x131, 0x17f, 0x1680, 0x180e, 0x2000, 0x2007, 0x200a, 0x200b, 0x2028, 0x2029, 0x202f, 0x205f,
        0x212a, 0x3000, 0xfeff, 0xfffd, 0x1f600, 0x10ffff
    };

    private static final List<String> FIXED = List.of(
            "",
            " ",
            "  ",
            "HTTP://x",
            "https://x",
            "Https://example.com/a?b=c#d",
            "ftp://x",
            "http://",
            "about:blank",
            "ABOUT:BLANK",
            "0",
            "01",
            "1234567890123456789",
            "0123456789abcdef0123456789abcdef01234567",
            "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "0123abcd-0123-4567-89ab-0123456789ab",
            "refs/heads/main",
            "a/b",
            "/abs/path",
            "a\\b",
            "com.example.App",
            ".x_1",
            "doc-0123456789abcdef:12",
            "art-0123456789abcdef",
            "0123456789abcdef:8080");

    /** Each pattern of issue 39 as it was, and what replaced it. */
    private static final Map<String, String> REWRITTEN = Map.of(
            "(?i:https?)://[^\\p{Cc}]+|about:blank",
            "[Hh][Tt][Tt][Pp][Ss]?://[^\\u0000-\\u001f\\u007f-\\u009f]+|about:blank",
            "(?i:https?)://[^\\p{Cc}]+",
            "[Hh][Tt][Tt][Pp][Ss]?://[^\\u0000-\\u001f\\u007f-\\u009f]+",
            "[^\\p{Cc}]+",
            "[^\\u0000-\\u001f\\u007f-\\u009f]+",
            "[^\\p{Cc}/\\\\]+",
            "[^\\u0000-\\u001f\\u007f-\\u009f/\\\\]+",
            "(?=.*[^\\s])[^\\p{Cc}]+",
            "(?=[ ]*[^ ])[^\\u0000-\\u001f\\u007f-\\u009f]+",
            "(?=.*[^\\s])[^\\p{Cc}\\u2028\\u2029]+",
            "(?=[ ]*[^ ])[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]+");

    @TempDir
    static Path temp;

    private static final List<Schema> SCHEMAS = new ArrayList<>();
    private static final List<Found> PATTERNS = new ArrayList<>();
    private static final Map<String, JsonNode> ENGINES = new ConcurrentHashMap<>();
    private static Path input = Path.of("");

    record Schema(String tool, String kind, ObjectNode schema) {}

    record Found(String tool, String kind, String path, String pattern) {
        @Override
        public String toString() {
            return tool + " " + kind + "Schema" + path + ": " + pattern;
        }
    }

    @BeforeAll
    static void collectTheLiveCatalog() throws IOException {
        for (ToolSpec<?> spec : ToolCatalog.standard().all()) {
            SCHEMAS.add(new Schema(spec.name(), "input", spec.inputSchema()));
            SCHEMAS.add(new Schema(spec.name(), "output", ToolCatalog.standard().outputSchema(spec)));
        }
        for (Schema schema : SCHEMAS) {
            collect(schema, schema.schema(), "", PATTERNS);
        }
        ObjectNode document = JSON.createObjectNode();
        ArrayNode schemas = document.putArray("schemas");
        SCHEMAS.forEach(s ->
                schemas.addObject().put("tool", s.tool()).put("kind", s.kind()).set("schema", s.schema()));
        ArrayNode patterns = document.putArray("patterns");
        PATTERNS.forEach(p -> patterns.addObject()
                .put("tool", p.tool())
                .put("kind", p.kind())
                .put("path", p.path())
                .put("pattern", p.pattern()));
        bodies().forEach(document.putArray("bodies")::add);
        probes().forEach(document.putArray("probes")::add);
        input = temp.resolve("schemas.json");
        JSON.writeValue(input.toFile(), document);
    }

    @Test
    void theCatalogPublishesPatterns() {
        assertThat(PATTERNS).hasSizeGreaterThan(300);
        assertThat(SCHEMAS).hasSize(2 * ToolCatalog.standard().all().size());
    }

    @Test
    void javaCompilesEveryPattern() {
        List<String> refused = new ArrayList<>();
        for (Found found : PATTERNS) {
            try {
                Pattern.compile(found.pattern());
            } catch (PatternSyntaxException e) {
                refused.add(found + " -- " + e.getDescription());
            }
        }
        assertThat(refused).as("patterns Java cannot compile").isEmpty();
    }

    @Test
    void theTypeScriptSdksAjvCompilesEverySchemaAndEcmaScriptEveryPatternWithTheUFlag() throws Exception {
        assertNoErrors(
                engine("node"),
                "schemas Ajv (as the SDK builds it) cannot compile",
                "patterns new RegExp(p, 'u') refuses");
    }

    @Test
    void pythonsJsonschemaAcceptsEverySchemaWithItsFormatCheckerAndReCompilesEveryPattern() throws Exception {
        assertNoErrors(
                engine("python"),
                "schemas jsonschema's Draft 2020-12 metaschema check refuses (format regex)",
                "patterns re.compile refuses");
    }

    /**
     * Each pattern body, matched whole, accepts the same samples in the three dialects: controls, every
     * Latin-1 character, Unicode spaces and case folds in six positions (alone, after a letter or a space,
     * before a letter, in an address, inside its scheme).
     */
    @Test
    void everyPatternAcceptsTheSameSamplesInEcmaScriptPythonAndJava() throws Exception {
        List<String> probes = probes();
        Map<String, JsonNode> engines = new LinkedHashMap<>();
        engines.put("ECMAScript", engine("node").get("matches"));
        engines.put("Python", engine("python").get("matches"));
        List<String> differences = new ArrayList<>();
        for (String body : bodies()) {
            Pattern java;
            try {
                java = Pattern.compile(body);
            } catch (PatternSyntaxException e) {
                differences.add("Java could not compile " + body);
                continue;
            }
            for (Map.Entry<String, JsonNode> engine : engines.entrySet()) {
                JsonNode verdicts = engine.getValue().get(body);
                if (verdicts == null) {
                    differences.add(engine.getKey() + " could not compile " + body);
                    continue;
                }
                String text = verdicts.asString();
                List<String> apart = new ArrayList<>();
                for (int i = 0; i < probes.size(); i++) {
                    boolean other = text.charAt(i) == '1';
                    if (java.matcher(probes.get(i)).matches() != other) {
                        apart.add(escaped(probes.get(i))
                                + (other ? " (only " + engine.getKey() + " accepts)" : " (only Java accepts)"));
                    }
                }
                if (!apart.isEmpty()) {
                    differences.add(engine.getKey() + " and Java part on " + body + " (" + where(body) + ") for "
                            + apart.size() + " samples, e.g. " + apart.subList(0, Math.min(6, apart.size())));
                }
            }
        }
        assertThat(differences)
                .as("patterns whose meaning depends on the dialect")
                .isEmpty();
    }

    /**
     * The patterns issue 39 rewrote, as they were and as they are: in Java (the binder matches whole),
     * each accepts exactly what it accepted before, for every character of the Basic Multilingual Plane
     * and the notable astral ones in the six positions of the samples.
     */
    @Test
    void theRewrittenPatternsAcceptInJavaExactlyWhatTheyAcceptedBefore() {
        List<String> published = bodies();
        List<String> changed = new ArrayList<>();
        assertThat(String.join("\n", published))
                .as("no published pattern keeps a construct only Java reads")
                .doesNotContain("\\p{")
                .doesNotContain("(?i");
        REWRITTEN.forEach((before, now) -> {
            Pattern old = Pattern.compile(before);
            Pattern current = Pattern.compile(now);
            List<String> samples = new ArrayList<>(FIXED);
            IntStream.concat(IntStream.rangeClosed(0, 0xffff), IntStream.of(NOTABLE))
                    .mapToObj(Character::toString)
                    .forEach(c -> samples.addAll(inContexts(c)));
            for (String sample : samples) {
                if (old.matcher(sample).matches() != current.matcher(sample).matches()) {
                    changed.add(now + " on " + escaped(sample));
                }
            }
        });
        assertThat(changed)
                .as("samples the rewritten patterns now judge differently")
                .isEmpty();
    }

    @Test
    void aBrowserAddressStillHasAnHttpSchemeInAnyCaseAndNoControlCharacter() {
        Pattern address = Pattern.compile(PATTERNS.stream()
                .filter(p -> p.tool().equals("lomi_browser_open") && p.pattern().contains("about:blank"))
                .findFirst()
                .orElseThrow()
                .pattern());
        assertThat(List.of("HTTP://x", "https://x", "hTtPs://example.com/a?b", "about:blank"))
                .allMatch(s -> address.matcher(s).matches());
        assertThat(List.of(
                        "ftp://x",
                        "https://x\u0085",
                        "http://a\u0000b",
                        "http://x\u007f",
                        "http\u017f://x",
                        "ABOUT:BLANK"))
                .noneMatch(s -> address.matcher(s).matches());
    }

    /** The pattern bodies, each the published pattern without its anchors {@code ^…$}. */
    private static List<String> bodies() {
        Set<String> bodies = new LinkedHashSet<>();
        for (Found found : PATTERNS) {
            String p = found.pattern();
            assertThat(p).as(found.toString()).startsWith("^").endsWith("$");
            bodies.add(p.substring(1, p.length() - 1));
        }
        return List.copyOf(bodies);
    }

    private static String where(String body) {
        return PATTERNS.stream()
                .filter(p -> p.pattern().equals("^" + body + "$"))
                .map(p -> p.tool() + " " + p.kind() + "Schema" + p.path())
                .distinct()
                .limit(3)
                .toList()
                .toString();
    }

    static List<String> probes() {
        List<String> probes = new ArrayList<>(FIXED);
        IntStream.concat(IntStream.rangeClosed(0, 0xff), IntStream.of(NOTABLE))
                .mapToObj(Character::toString)
                .forEach(c -> probes.addAll(inContexts(c)));
        return probes;
    }

    /** {@code c} alone, after a letter, before a letter, after a space, ending an address, inside a scheme. */
    static List<String> inContexts(String c) {
        return List.of(c, "x" + c, c + "x", " " + c, "https://x" + c, "http" + c + "://x");
    }

    /** Every {@code pattern} keyword under {@code node}, with its JSON pointer; enum, const and default values are data. */
    private static void collect(Schema schema, JsonNode node, String path, List<Found> into) {
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collect(schema, node.get(i), path + "/" + i, into);
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String key = field.getKey();
            JsonNode value = field.getValue();
            if (key.equals("pattern") && value.isString()) {
                into.add(new Found(schema.tool(), schema.kind(), path + "/pattern", value.asString()));
            } else if (!List.of("enum", "const", "default", "examples").contains(key)) {
                collect(schema, value, path + "/" + key, into);
            }
        }
    }

    private static List<String> errors(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(
                e -> out.add(e.path("tool").asString() + " " + e.path("kind").asString() + "Schema"
                        + e.path("path").asString("")
                        + (e.has("pattern") ? ": " + e.path("pattern").asString() : "")
                        + " -- " + e.path("error").asString()));
        return out;
    }

    /** The answer of the Node or Python checker on the catalog's schemas (each runs once). */
    private static JsonNode engine(String which) throws Exception {
        JsonNode known = ENGINES.get(which);
        if (known != null) {
            return known;
        }
        List<String> command;
        Path dir;
        if (which.equals("node")) {
            InteropPackages.install();
            dir = InteropPackages.DIRECTORY;
            command = List.of("node", dir.resolve("schema-portability.mjs").toString(), input.toString());
        } else {
            String python = Machine.requirePythonModule("jsonschema", "python3-jsonschema");
            dir = InteropPackages.DIRECTORY;
            command = List.of(python, dir.resolve("schema_portability.py").toString(), input.toString());
        }
        Path out = temp.resolve(which + ".out");
        Path err = temp.resolve(which + ".err");
        Process process = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS))
                .as(which + " finished")
                .isTrue();
        assertThat(process.exitValue()).as(which + ": " + Files.readString(err)).isZero();
        JsonNode answer = JSON.readTree(out.toFile());
        ENGINES.put(which, answer);
        return answer;
    }

    private static String escaped(String s) {
        StringBuilder out = new StringBuilder("\"");
        s.codePoints()
                .forEach(c -> out.append(
                        c < 0x20 || (c >= 0x7f && c <= 0xa0) || c > 0x7e
                                ? (c > 0xffff ? "\\u{" + Integer.toHexString(c) + "}" : String.format("\\u%04x", c))
                                : Character.toString(c)));
        return out.append('"').toString();
    }

    /** The engine's answer lists no schema it could not compile and no pattern it refused. */
    private static void assertNoErrors(JsonNode engine, String schemasRefused, String patternsRefused) {
        assertThat(errors(engine.get("schemaErrors"))).as(schemasRefused).isEmpty();
        assertThat(errors(engine.get("patternErrors"))).as(patternsRefused).isEmpty();
    }
}
