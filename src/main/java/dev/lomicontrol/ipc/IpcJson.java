package dev.lomicontrol.ipc;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The private IPC's JSON through a mapper, for the broker (the helper reads and writes its frames
 * without one: {@link IpcFrames}): strict (unknown fields, missing primitives, trailing tokens and
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

    private IpcJson() {}

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
