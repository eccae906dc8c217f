package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JSON or JSONC client config merged, never rewritten: inside the client's server map (e.g.
 * {@code mcpServers}, {@code servers}, {@code context_servers}, {@code mcp}) only the fields
 * lomi-control owns in the {@code lomi-control} entry ({@link EntryFields}) are set, as text edits;
 * every other byte of the file stays, comments and trailing commas included. Comments and trailing
 * commas are accepted only for clients that accept them. A file that does not parse, has duplicate
 * keys, or whose server map or entry is not an object is refused and left untouched.
 */
final class JsonMcpConfig {

    private static final JsonMapper STRICT = mapper(false);
    private static final JsonMapper LENIENT = mapper(true);
    /** A byte-order mark some editors put first; kept as it is, not parsed. */
    private static final String BOM = "\uFEFF";

    private final McpClient.Format format;
    private final boolean jsonc;

    JsonMcpConfig(McpClient.Format format, boolean jsonc) {
        this.format = format;
        this.jsonc = jsonc;
    }

    private static JsonMapper mapper(boolean jsonc) {
        JsonMapper.Builder builder = JsonMapper.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES);
        if (jsonc) {
            builder.enable(JsonReadFeature.ALLOW_JAVA_COMMENTS).enable(JsonReadFeature.ALLOW_TRAILING_COMMA);
        }
        return builder.build();
    }

    /** The merged file text, or empty when every field we own is already as {@code entry} wants it. */
    Optional<String> merge(Path file, Optional<String> existing, McpEntry entry) {
        List<EntryFields.Field> fields = EntryFields.of(format, entry);
        if (existing.isEmpty() || existing.get().isBlank()) {
            return Optional.of(JsoncEdits.document(nest(format.container(), entry(fields))));
        }
        String bom = existing.get().startsWith(BOM) ? BOM : "";
        String original = existing.get().substring(bom.length());
        ObjectNode expected = tree(file, original);
        String text = original;
        for (int step = 0; step <= fields.size() + format.container().size(); step++) {
            Optional<String> next = nextEdit(file, text, fields, expected);
            if (next.isEmpty()) {
                if (!tree(file, text).equals(expected)) {
                    throw new IllegalStateException(
                            file + ": the merge would change more than the lomi-control entry; file left untouched");
                }
                return text.equals(original) ? Optional.empty() : Optional.of(bom + text);
            }
            text = next.get();
        }
        throw new IllegalStateException(file + ": the merge did not settle; file left untouched");
    }

    /** One text edit towards the wanted entry (recorded in {@code expected} too), or empty when none is left. */
    private Optional<String> nextEdit(Path file, String text, List<EntryFields.Field> fields, ObjectNode expected) {
        Jsonc.Obj object = root(file, text);
        ObjectNode node = expected;
        List<String> path = format.container();
        for (int i = 0; i < path.size(); i++) {
            Jsonc.Member member = object.member(path.get(i));
            if (member == null) {
                ObjectNode value = nest(path.subList(i + 1, path.size()), entry(fields));
                node.set(path.get(i), value);
                return Optional.of(JsoncEdits.insertMember(text, object, path.get(i), value));
            }
            object = asObject(file, member, "\"" + String.join(".", path.subList(0, i + 1)) + "\"");
            node = (ObjectNode) node.get(path.get(i));
        }
        Jsonc.Member ours = object.member(McpEntry.NAME);
        if (ours == null) {
            node.set(McpEntry.NAME, entry(fields));
            return Optional.of(JsoncEdits.insertMember(text, object, McpEntry.NAME, entry(fields)));
        }
        Jsonc.Obj entryObject = asObject(file, ours, "the " + McpEntry.NAME + " entry");
        ObjectNode entryNode = (ObjectNode) node.get(McpEntry.NAME);
        for (EntryFields.Field field : fields) {
            Jsonc.Member member = entryObject.member(field.name());
            if (!field.rule().satisfiedBy(member == null ? null : value(text, member.value()), field.value())) {
                entryNode.set(field.name(), field.value());
                return Optional.of(
                        member == null
                                ? JsoncEdits.insertMember(text, entryObject, field.name(), field.value())
                                : JsoncEdits.replaceValue(text, member, field.value()));
            }
        }
        return Optional.empty();
    }

    /** The state of the {@code lomi-control} entry in {@code text} against {@code entry}. */
    EntryFields.Verdict state(Path file, String text, Optional<McpEntry> entry) {
        JsonNode node = tree(file, text.startsWith(BOM) ? text.substring(1) : text);
        for (String key : format.container()) {
            node = node.get(key);
            if (node == null) {
                return new EntryFields.Verdict(EntryState.ABSENT, List.of());
            }
            if (!node.isObject()) {
                throw refused(file, "\"" + key + "\" is not a JSON object");
            }
        }
        JsonNode found = node.get(McpEntry.NAME);
        if (found == null) {
            return new EntryFields.Verdict(EntryState.ABSENT, List.of());
        }
        if (!found.isObject()) {
            throw refused(file, "the " + McpEntry.NAME + " entry is not a JSON object");
        }
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        found.properties().forEach(e -> fields.put(e.getKey(), e.getValue()));
        return EntryFields.judge(format, fields, entry);
    }

    /** The entry as a JSON object of its fields, for {@code client show}. */
    ObjectNode snippet(McpEntry entry) {
        return nest(format.container(), entry(EntryFields.of(format, entry)));
    }

    private static ObjectNode entry(List<EntryFields.Field> fields) {
        ObjectNode node = STRICT.createObjectNode();
        fields.forEach(f -> node.set(f.name(), f.value()));
        return node;
    }

    private static ObjectNode nest(List<String> path, ObjectNode entry) {
        ObjectNode inner = STRICT.createObjectNode();
        inner.set(McpEntry.NAME, entry);
        for (int i = path.size() - 1; i >= 0; i--) {
            ObjectNode outer = STRICT.createObjectNode();
            outer.set(path.get(i), inner);
            inner = outer;
        }
        return inner;
    }

    private JsonNode value(String text, Jsonc.Node node) {
        return LENIENT.readTree(text.substring(node.start(), node.end()));
    }

    private Jsonc.Obj root(Path file, String text) {
        try {
            if (Jsonc.parse(text, jsonc) instanceof Jsonc.Obj object) {
                return object;
            }
            throw refused(file, "is not a JSON object");
        } catch (Jsonc.Invalid e) {
            throw refused(
                    file, "is not valid " + (jsonc ? "JSON with comments" : "JSON") + " (" + e.getMessage() + ")");
        }
    }

    private static Jsonc.Obj asObject(Path file, Jsonc.Member member, String what) {
        if (member.value() instanceof Jsonc.Obj object) {
            return object;
        }
        throw refused(file, what + " is not a JSON object");
    }

    /** The whole document as Jackson reads it (duplicate keys refused), so edits can be checked semantically. */
    private ObjectNode tree(Path file, String text) {
        try {
            root(file, text);
            return (ObjectNode) (jsonc ? LENIENT : STRICT).readTree(text);
        } catch (JacksonException e) {
            throw refused(
                    file,
                    "is not valid " + (jsonc ? "JSON with comments" : "JSON") + " (" + e.getOriginalMessage() + ")");
        }
    }

    private static LomiException refused(Path file, String why) {
        return new LomiException(
                ErrorCode.INVALID_ARGUMENT, file + ": " + why + "; fix it by hand (file left untouched)");
    }
}
