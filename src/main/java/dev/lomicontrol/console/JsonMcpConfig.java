package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.file.Path;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.util.DefaultIndenter;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JSON client config ({@code mcpServers} or VS Code's {@code servers}) merged, never replaced:
 * only the {@code lomi-control} entry is set; every other key and entry keeps its value and order
 * (numbers exactly, as decimals). A file that is not a JSON object (comments, trailing commas,
 * duplicate keys included) or whose server map is not an object is refused and left untouched.
 */
final class JsonMcpConfig {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter(
            Separators.createDefaultInstance().withObjectNameValueSpacing(Separators.Spacing.AFTER).withObjectEmptySeparator("")
                    .withArrayEmptySeparator(""))
            .withObjectIndenter(new DefaultIndenter("  ", "\n")).withArrayIndenter(new DefaultIndenter("  ", "\n"));

    private final McpClient.Format format;

    JsonMcpConfig(McpClient.Format format) {
        this.format = format;
    }

    /** The merged file text, or empty when the entry is already exactly {@code entry}. */
    Optional<String> merge(Path file, Optional<String> existing, McpEntry entry) {
        ObjectNode root = existing.filter(text -> !text.isBlank()).map(text -> parse(file, text)).orElseGet(MAPPER::createObjectNode);
        ObjectNode servers = servers(file, root);
        ObjectNode wanted = node(entry);
        if (wanted.equals(servers.get(McpEntry.NAME))) {
            return Optional.empty();
        }
        servers.set(McpEntry.NAME, wanted);
        return Optional.of(MAPPER.writer().with(PRETTY).writeValueAsString(root) + "\n");
    }

    /** Whether the file holds exactly {@code entry}, another {@code lomi-control} entry, or none. */
    EntryState state(Path file, String text, Optional<McpEntry> entry) {
        JsonNode found = servers(file, parse(file, text)).get(McpEntry.NAME);
        if (found == null) {
            return EntryState.ABSENT;
        }
        return entry.map(e -> node(e).equals(found) ? EntryState.CURRENT : EntryState.DIFFERENT).orElse(EntryState.PRESENT);
    }

    private ObjectNode node(McpEntry entry) {
        ObjectNode node = MAPPER.createObjectNode();
        if (format == McpClient.Format.VSCODE_SERVERS) {
            node.put("type", "stdio");
        }
        node.put("command", entry.command());
        ArrayNode args = node.putArray("args");
        entry.args().forEach(args::add);
        return node;
    }

    private ObjectNode servers(Path file, ObjectNode root) {
        String key = format == McpClient.Format.VSCODE_SERVERS ? "servers" : "mcpServers";
        JsonNode servers = root.get(key);
        if (servers == null) {
            return root.putObject(key);
        }
        if (!servers.isObject()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, file + ": \"" + key + "\" is not a JSON object; fix it by hand (file left untouched)");
        }
        return (ObjectNode) servers;
    }

    private static ObjectNode parse(Path file, String text) {
        try {
            JsonNode root = MAPPER.readTree(text);
            if (root == null || !root.isObject()) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, file + " is not a JSON object; fix it by hand (file left untouched)");
            }
            return (ObjectNode) root;
        } catch (JacksonException e) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, file + " is not valid JSON (" + e.getOriginalMessage()
                    + "); fix it by hand (file left untouched)");
        }
    }
}
