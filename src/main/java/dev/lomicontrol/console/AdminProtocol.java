package dev.lomicontrol.console;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The admin socket's messages, one JSON object per frame ({@link AdminFrames}). A request carries
 * the token from {@code admin.token}, exactly one of {@code line} (run it) or {@code complete}
 * (candidates for the word at the end of this partial line), and the console's absolute
 * {@code cwd} and {@code home}. The answer is a {@link Result} or {@link Candidates}. Parsing is
 * strict: unknown fields, duplicate keys and trailing data are refused; answers and the token file
 * must have every field.
 */
public final class AdminProtocol {

    /** Exactly one of {@code line} and {@code complete} is present (the other is omitted on the wire). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Request(
            String token, @Nullable String line, @Nullable String complete, String cwd, String home) {

        public static Request run(String token, String line, String cwd, String home) {
            return new Request(token, line, null, cwd, home);
        }

        public static Request complete(String token, String buffer, String cwd, String home) {
            return new Request(token, null, buffer, cwd, home);
        }
    }

    public record Result(int exitCode, String stdout, String stderr) {}

    public record Candidates(List<String> candidates) {}

    /** A message that does not have the one allowed shape. */
    public static final class MalformedException extends Exception {
        private static final long serialVersionUID = 1L;

        MalformedException(String message) {
            super(message);
        }
    }

    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private AdminProtocol() {}

    static byte[] write(Object message) {
        return MAPPER.writeValueAsBytes(message);
    }

    static <T> T read(byte[] frame, Class<T> type) throws MalformedException {
        try {
            T value = MAPPER.readValue(frame, type);
            if (value == null) {
                throw new MalformedException("empty " + type.getSimpleName());
            }
            return value;
        } catch (JacksonException e) {
            throw new MalformedException("malformed " + type.getSimpleName() + ": " + e.getOriginalMessage());
        }
    }

    /** A request with a string token, exactly one of line/complete, and absolute cwd and home. */
    static Request readRequest(byte[] frame) throws MalformedException {
        Request request;
        try {
            request = MAPPER.readerFor(Request.class)
                    .without(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
                    .readValue(frame);
        } catch (JacksonException e) {
            throw new MalformedException("malformed Request: " + e.getOriginalMessage());
        }
        if (request == null) {
            throw new MalformedException("empty Request");
        }
        if (request.token() == null || (request.line() == null) == (request.complete() == null)) {
            throw new MalformedException("a request has a token and exactly one of line or complete");
        }
        if (request.cwd() == null
                || request.home() == null
                || !request.cwd().startsWith("/")
                || !request.home().startsWith("/")) {
            throw new MalformedException("a request names the console's absolute cwd and home");
        }
        try {
            java.nio.file.Path.of(request.cwd());
            java.nio.file.Path.of(request.home());
        } catch (java.nio.file.InvalidPathException e) {
            throw new MalformedException("cwd or home is not a valid path: " + e.getMessage());
        }
        return request;
    }
}
