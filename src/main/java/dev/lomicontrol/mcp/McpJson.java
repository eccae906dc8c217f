package dev.lomicontrol.mcp;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The helper's JSON: strict parsing (duplicate keys, trailing tokens, invalid UTF-8 and
 * documents nested deeper than {@link #MAX_DEPTH} are refused) and compact single-line writing.
 */
final class McpJson {

    static final int MAX_DEPTH = 64;

    static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_DEPTH)
                            .build())
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private McpJson() {}

    static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    static ArrayNode array() {
        return JsonNodeFactory.instance.arrayNode();
    }

    /**
     * Decodes {@code bytes} as strict UTF-8 (malformed or unpaired sequences are refused, never
     * replaced) and parses exactly one JSON value. Throws {@link CharacterCodingException} or a
     * Jackson exception; both mean "parse error" to the caller.
     */
    static JsonNode parse(byte[] bytes) throws CharacterCodingException {
        String text = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
        return MAPPER.readTree(text);
    }

    /** The compact serialized size in bytes (what "arguments over 64 KiB" is measured on). */
    static int serializedSize(JsonNode node) {
        return MAPPER.writeValueAsBytes(node).length;
    }

    /** One line of compact JSON; Jackson escapes control characters, so it never contains a newline. */
    static byte[] line(JsonNode node) {
        return MAPPER.writeValueAsBytes(node);
    }
}
