package dev.lomicontrol.mcp;

import dev.lomicontrol.json.StreamingJson;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.util.ByteArrayBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.MissingNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The helper's JSON: strict parsing (duplicate keys, trailing tokens, invalid UTF-8 and
 * documents nested deeper than {@link #MAX_DEPTH} are refused) and compact single-line writing.
 *
 * <p>Trees are read and written with Jackson's streaming parser and generator and its node
 * classes, without an {@code ObjectMapper}: building the helper's first mapper initialises most of
 * jackson-databind (its type factory, java.time support, date formats and time zones), which was
 * the largest part of the time to the {@code initialize} answer (ADR 0015). The trees are the ones
 * the mapper would read and its bytes the ones it would write ({@code McpJsonTests}). A
 * {@link RawJson} node is written as the checked bytes it holds.
 */
final class McpJson {

    static final int MAX_DEPTH = 64;

    static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(
                    StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private McpJson() {}

    static ObjectNode object() {
        return NODES.objectNode();
    }

    static ArrayNode array() {
        return NODES.arrayNode();
    }

    /**
     * Decodes {@code bytes} as strict UTF-8 (malformed or unpaired sequences are refused, never
     * replaced) and parses exactly one JSON value ({@link MissingNode} for no value at all). Throws
     * {@link CharacterCodingException} or a Jackson exception; both mean "parse error" to the caller.
     */
    static JsonNode parse(byte[] bytes) throws CharacterCodingException {
        String text = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
        try (JsonParser parser = FACTORY.createParser(ObjectReadContext.empty(), text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                return MissingNode.getInstance();
            }
            JsonNode value = StreamingJson.read(parser, first);
            JsonToken trailing = parser.nextToken();
            if (trailing != null) {
                throw new StreamReadException(parser, "Trailing token (of type " + trailing + ") found after value");
            }
            return value;
        }
    }

    /** The compact serialized size in bytes (what "arguments over 64 KiB" is measured on). */
    static int serializedSize(JsonNode node) {
        return line(node).length;
    }

    /** One line of compact JSON; control characters are escaped, so it never contains a newline. */
    static byte[] line(JsonNode node) {
        return bytes(node, false);
    }

    /** {@link #line} followed by {@code \n}: a whole message for stdout, written with one system call. */
    static byte[] terminatedLine(JsonNode node) {
        return bytes(node, true);
    }

    private static byte[] bytes(JsonNode node, boolean newline) {
        ByteArrayBuilder bytes = new ByteArrayBuilder(256);
        try (JsonGenerator generator = FACTORY.createGenerator(ObjectWriteContext.empty(), bytes)) {
            StreamingJson.write(generator, node);
        }
        if (newline) {
            bytes.append('\n');
        }
        return bytes.toByteArray();
    }

    /** The compact JSON text of {@code node} (what {@code JsonNode.toString()} gives, without a mapper). */
    static String string(JsonNode node) {
        return new String(line(node), StandardCharsets.UTF_8);
    }
}
