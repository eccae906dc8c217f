package dev.lomicontrol.mcp;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
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
import tools.jackson.databind.node.NumericNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.POJONode;

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
            JsonNode value = read(parser, first);
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
        ByteArrayBuilder bytes = new ByteArrayBuilder(256);
        try (JsonGenerator generator = FACTORY.createGenerator(ObjectWriteContext.empty(), bytes)) {
            write(generator, node);
        }
        return bytes.toByteArray();
    }

    /** The compact JSON text of {@code node} (what {@code JsonNode.toString()} gives, without a mapper). */
    static String string(JsonNode node) {
        return new String(line(node), StandardCharsets.UTF_8);
    }

    private static JsonNode read(JsonParser parser, JsonToken token) {
        switch (token) {
            case START_OBJECT:
                ObjectNode object = NODES.objectNode();
                for (JsonToken next = parser.nextToken(); next != JsonToken.END_OBJECT; next = parser.nextToken()) {
                    String name = parser.currentName();
                    object.set(name, read(parser, parser.nextToken()));
                }
                return object;
            case START_ARRAY:
                ArrayNode array = NODES.arrayNode();
                for (JsonToken next = parser.nextToken(); next != JsonToken.END_ARRAY; next = parser.nextToken()) {
                    array.add(read(parser, next));
                }
                return array;
            case VALUE_STRING:
                return NODES.stringNode(parser.getString());
            case VALUE_NUMBER_INT:
                return integral(parser);
            case VALUE_NUMBER_FLOAT:
                return fractional(parser);
            case VALUE_TRUE:
                return NODES.booleanNode(true);
            case VALUE_FALSE:
                return NODES.booleanNode(false);
            case VALUE_NULL:
                return NODES.nullNode();
            default:
                throw new StreamReadException(parser, "Unexpected token " + token);
        }
    }

    private static JsonNode integral(JsonParser parser) {
        switch (parser.getNumberType()) {
            case INT:
                return NODES.numberNode(parser.getIntValue());
            case LONG:
                return NODES.numberNode(parser.getLongValue());
            default:
                return NODES.numberNode(parser.getBigIntegerValue());
        }
    }

    /** As the mapper reads a fraction by default: a double (a magnitude beyond it is infinite). */
    private static JsonNode fractional(JsonParser parser) {
        return NODES.numberNode(parser.getDoubleValue());
    }

    private static void write(JsonGenerator generator, JsonNode node) {
        switch (node.getNodeType()) {
            case OBJECT:
                generator.writeStartObject();
                for (Map.Entry<String, JsonNode> property : node.properties()) {
                    generator.writeName(property.getKey());
                    write(generator, property.getValue());
                }
                generator.writeEndObject();
                return;
            case ARRAY:
                generator.writeStartArray();
                for (JsonNode element : node.values()) {
                    write(generator, element);
                }
                generator.writeEndArray();
                return;
            case STRING:
                generator.writeString(node.stringValue());
                return;
            case NUMBER:
                number(generator, node);
                return;
            case BOOLEAN:
                generator.writeBoolean(node.booleanValue());
                return;
            case BINARY:
                generator.writeBinary(node.binaryValue());
                return;
            case POJO:
                RawJson.write(generator, ((POJONode) node).getPojo());
                return;
            default:
                generator.writeNull();
        }
    }

    private static void number(JsonGenerator generator, JsonNode node) {
        switch (((NumericNode) node).numberType()) {
            case INT:
                generator.writeNumber(node.intValue());
                return;
            case LONG:
                generator.writeNumber(node.longValue());
                return;
            case BIG_INTEGER:
                generator.writeNumber(node.bigIntegerValue());
                return;
            case FLOAT:
                generator.writeNumber(node.floatValue());
                return;
            case DOUBLE:
                generator.writeNumber(node.doubleValue());
                return;
            default:
                generator.writeNumber(node.decimalValue());
        }
    }
}
