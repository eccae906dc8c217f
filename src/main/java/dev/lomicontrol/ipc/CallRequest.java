package dev.lomicontrol.ipc;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.json.StreamingJson;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Helper → broker inside TLS: one tool call. Exactly one may be in flight per connection. */
public record CallRequest(int ipcVersion, String requestId, String tool, JsonNode arguments) {

    /** The frame, written without a mapper (the helper's per-call path): the bytes {@code IpcJson.write(this)} gives. */
    public byte[] toFrame() {
        ObjectNode tree = JsonNodeFactory.instance
                .objectNode()
                .put("ipcVersion", ipcVersion)
                .put("requestId", requestId)
                .put("tool", tool);
        tree.set("arguments", arguments);
        return IpcFrames.write(tree);
    }

    /**
     * Reads a frame without a mapper (the broker's per-call path), or refuses it with INVALID_ARGUMENT: exactly the four
     * properties, each once, {@code ipcVersion} an integer, {@code requestId} and {@code tool} strings, nothing after
     * the object. Never more lenient than {@code IpcJson.read(frame, CallRequest.class)} (which also coerces a number
     * to a string): {@code CallRequestFrameTests}.
     */
    public static CallRequest read(byte[] frame) {
        try (JsonParser parser = IpcFrames.parser(frame)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw malformed("not a JSON object");
            }
            Integer ipcVersion = null;
            String requestId = null;
            String tool = null;
            JsonNode arguments = null;
            for (JsonToken token = parser.nextToken(); token == JsonToken.PROPERTY_NAME; token = parser.nextToken()) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "ipcVersion":
                        if (value != JsonToken.VALUE_NUMBER_INT
                                || parser.getNumberType() != JsonParser.NumberType.INT) {
                            throw malformed("ipcVersion must be an integer");
                        }
                        ipcVersion = parser.getIntValue();
                        break;
                    case "requestId":
                        requestId = string(parser, value, name);
                        break;
                    case "tool":
                        tool = string(parser, value, name);
                        break;
                    case "arguments":
                        arguments = StreamingJson.read(parser, value);
                        break;
                    default:
                        throw malformed("unexpected property \"" + name + "\"");
                }
            }
            if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null) {
                throw malformed("trailing tokens after the message");
            }
            if (ipcVersion == null || requestId == null || tool == null || arguments == null) {
                throw malformed("ipcVersion, requestId, tool and arguments are required");
            }
            return new CallRequest(ipcVersion, requestId, tool, arguments);
        } catch (JacksonException e) {
            throw malformed(e.getOriginalMessage());
        }
    }

    private static String string(JsonParser parser, @Nullable JsonToken value, String name) {
        if (value != JsonToken.VALUE_STRING) {
            throw malformed(name + " must be a string");
        }
        return parser.getString();
    }

    private static LomiException malformed(String why) {
        return new LomiException(ErrorCode.INVALID_ARGUMENT, "malformed CallRequest: " + why);
    }
}
