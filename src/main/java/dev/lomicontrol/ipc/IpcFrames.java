package dev.lomicontrol.ipc;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.json.StreamingJson;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The private IPC's JSON for the helper's side, without a mapper (ADR 0015): the wire's rules as a
 * streaming factory (duplicate keys refused, default limits), frames written from trees, and the
 * strict reading of a message as {@link IpcJson#read} does it — exactly the record's properties, each
 * of its JSON type, nothing after the object — refused with INVALID_ARGUMENT ({@code IpcMessagesTests}
 * holds each reader to that mapper). The broker keeps {@link IpcJson}.
 */
public final class IpcFrames {

    public static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private IpcFrames() {}

    /** A parser over one frame with the wire's rules; the caller checks for trailing tokens. */
    public static JsonParser parser(byte[] frame) {
        return FACTORY.createParser(ObjectReadContext.empty(), frame);
    }

    /** A tree's compact bytes, as {@link IpcJson#write} writes the same tree. */
    public static byte[] write(JsonNode tree) {
        return StreamingJson.bytes(FACTORY, tree);
    }

    /** The frame as an object with exactly {@code properties}, or INVALID_ARGUMENT naming {@code what}. */
    static ObjectNode object(byte[] frame, String what, List<String> properties) {
        JsonNode tree;
        try {
            tree = StreamingJson.parse(FACTORY, frame);
        } catch (JacksonException e) {
            throw malformed(what, e.getOriginalMessage());
        }
        if (!(tree instanceof ObjectNode object)) {
            throw malformed(what, "not a JSON object");
        }
        for (String name : object.propertyNames()) {
            if (!properties.contains(name)) {
                throw malformed(what, "unexpected property \"" + name + "\"");
            }
        }
        for (String name : properties) {
            if (!object.has(name)) {
                throw malformed(what, "missing property \"" + name + "\"");
            }
        }
        return object;
    }

    static String string(ObjectNode object, String name, String what) {
        JsonNode value = object.get(name);
        if (value == null || !value.isString()) {
            throw malformed(what, name + " must be a string");
        }
        return value.stringValue();
    }

    static int integer(ObjectNode object, String name, String what) {
        JsonNode value = object.get(name);
        if (value == null || !value.isInt()) {
            throw malformed(what, name + " must be an integer");
        }
        return value.intValue();
    }

    static LomiException malformed(String what, String why) {
        return new LomiException(ErrorCode.INVALID_ARGUMENT, "malformed " + what + ": " + why);
    }
}
