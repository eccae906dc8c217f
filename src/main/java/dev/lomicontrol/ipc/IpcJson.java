package dev.lomicontrol.ipc;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.util.ByteArrayBuilder;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The private IPC's JSON: strict (unknown fields, missing primitives, trailing tokens and
 * duplicate keys are refused), so both sides agree on exactly one shape per message.
 */
public final class IpcJson {

    public static final int IPC_VERSION = 1;

    public static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(tools.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /**
     * The same rules for code that reads tokens or writes trees without a mapper ({@link StreamingJson}): duplicate
     * keys refused, default limits. The helper's per-call path uses only this (ADR 0015).
     */
    public static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private IpcJson() {}

    /** A parser over one frame with the wire's rules; the caller checks for trailing tokens. */
    public static JsonParser parser(byte[] frame) {
        return FACTORY.createParser(ObjectReadContext.empty(), frame);
    }

    /** A tree's compact bytes, as {@link #write} writes the same tree. */
    public static byte[] writeTree(JsonNode tree) {
        ByteArrayBuilder bytes = new ByteArrayBuilder(256);
        try (JsonGenerator generator = FACTORY.createGenerator(ObjectWriteContext.empty(), bytes)) {
            StreamingJson.write(generator, tree);
        }
        return bytes.toByteArray();
    }

    public static byte[] write(Object message) {
        return MAPPER.writeValueAsBytes(message);
    }

    /** Parses one message or refuses with INVALID_ARGUMENT. */
    public static <T> T read(byte[] frame, Class<T> type) {
        try {
            T value = MAPPER.readValue(frame, type);
            if (value == null) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "empty " + type.getSimpleName());
            }
            return value;
        } catch (JacksonException e) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "malformed " + type.getSimpleName() + ": " + e.getOriginalMessage());
        }
    }
}
