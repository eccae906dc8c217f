package dev.lomicontrol.json;

import java.util.Map;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.util.ByteArrayBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.MissingNode;
import tools.jackson.databind.node.NumericNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.POJONode;

/**
 * JSON trees through Jackson's streaming layer alone: read from a {@link JsonParser}, written to a
 * {@link JsonGenerator}, with databind's node classes as data and no {@code ObjectMapper} — the
 * trees a mapper with default settings would read and the bytes it would write (ADR 0015). The
 * MCP helper uses nothing else: building a first mapper costs a fresh JVM most of jackson-databind's
 * initialisation (~800 classes) and its C1 compiler ~1,000 compilations.
 */
public final class StreamingJson {

    /** A value in a tree (a {@link POJONode}'s content) that writes itself. */
    public interface Writable {
        void writeTo(JsonGenerator generator);
    }

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StreamingJson() {}

    /**
     * Exactly one value in {@code bytes} under {@code factory}'s rules: trailing tokens are refused, no value at
     * all is {@link MissingNode}. Throws a Jackson exception for anything that is not JSON.
     */
    public static JsonNode parse(TokenStreamFactory factory, byte[] bytes) {
        try (JsonParser parser = factory.createParser(ObjectReadContext.empty(), bytes)) {
            return readOne(parser);
        }
    }

    /** As {@link #parse(TokenStreamFactory, byte[])}, for text. */
    public static JsonNode parse(TokenStreamFactory factory, String text) {
        try (JsonParser parser = factory.createParser(ObjectReadContext.empty(), text)) {
            return readOne(parser);
        }
    }

    private static JsonNode readOne(JsonParser parser) {
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

    /** {@code tree}'s compact bytes under {@code factory}'s rules. */
    public static byte[] bytes(TokenStreamFactory factory, JsonNode tree) {
        ByteArrayBuilder bytes = new ByteArrayBuilder(256);
        try (JsonGenerator generator = factory.createGenerator(ObjectWriteContext.empty(), bytes)) {
            write(generator, tree);
        }
        return bytes.toByteArray();
    }

    /** The value that starts at {@code token}, the parser's current token; leaves the parser on its last token. */
    public static JsonNode read(JsonParser parser, JsonToken token) {
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
                // as a mapper reads a fraction by default: a double (a magnitude beyond it is infinite)
                return NODES.numberNode(parser.getDoubleValue());
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

    /** Writes {@code node}; a {@link POJONode} must hold a {@link Writable}. */
    public static void write(JsonGenerator generator, JsonNode node) {
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
                number(generator, (NumericNode) node);
                return;
            case BOOLEAN:
                generator.writeBoolean(node.booleanValue());
                return;
            case BINARY:
                generator.writeBinary(node.binaryValue());
                return;
            case POJO:
                Object content = ((POJONode) node).getPojo();
                if (!(content instanceof Writable)) {
                    throw new IllegalArgumentException("no "
                            + (content == null ? "null" : content.getClass().getName()) + " is written as JSON");
                }
                ((Writable) content).writeTo(generator);
                return;
            default:
                generator.writeNull();
        }
    }

    private static void number(JsonGenerator generator, NumericNode node) {
        switch (node.numberType()) {
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
