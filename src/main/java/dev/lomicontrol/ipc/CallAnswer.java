package dev.lomicontrol.ipc;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.json.StreamingJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.databind.JsonNode;

/**
 * The broker's answer to one call — a {@link CallResponse} frame — read once, as tokens, without
 * building a tree: the request it answers, where its result lies in the frame, and the envelope
 * fields the helper acts on. The frame is held to the same rules as {@link IpcJson#read} (exactly
 * the two properties, no duplicate keys, no trailing tokens) and the result's bytes are strict
 * UTF-8, so a helper can hand an envelope to its client as the bytes the broker wrote instead of
 * decoding and re-encoding it (ADR 0015).
 */
public final class CallAnswer {

    private final byte[] frame;
    private final String requestId;
    private final Result result;

    private CallAnswer(byte[] frame, String requestId, Result result) {
        this.frame = frame;
        this.requestId = requestId;
        this.result = result;
    }

    /** Reads a frame or refuses it with INVALID_ARGUMENT, as {@code IpcJson.read(frame, CallResponse.class)} would. */
    public static CallAnswer read(byte[] frame) {
        try (JsonParser parser = IpcFrames.parser(frame)) {
            return read(frame, parser);
        } catch (JacksonException e) {
            throw malformed(e.getOriginalMessage());
        }
    }

    private static CallAnswer read(byte[] frame, JsonParser parser) {
        if (parser.nextToken() != JsonToken.START_OBJECT) {
            throw malformed("not a JSON object");
        }
        String requestId = null;
        Result result = null;
        for (JsonToken token = parser.nextToken(); token == JsonToken.PROPERTY_NAME; token = parser.nextToken()) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            if (name.equals("requestId")) {
                if (value != JsonToken.VALUE_STRING) {
                    throw malformed("requestId must be a string");
                }
                requestId = parser.getString();
            } else if (name.equals("result")) {
                result = Result.read(frame, parser, value);
            } else {
                throw malformed("unexpected property \"" + name + "\" (" + value + ")");
            }
        }
        if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null) {
            throw malformed("trailing tokens after the message");
        }
        if (requestId == null || result == null) {
            throw malformed("requestId and result are required");
        }
        return new CallAnswer(frame, requestId, result);
    }

    public String requestId() {
        return requestId;
    }

    /** A Control API envelope: an object whose {@code controlApiVersion} is a string and whose status is "ok" or "error". */
    public boolean isEnvelope() {
        return result.start >= 0
                && result.controlApiVersion != null
                && ("ok".equals(result.status) || "error".equals(result.status));
    }

    public boolean isOk() {
        return "ok".equals(result.status);
    }

    /** The envelope's {@code ledgerWarning}, when it is a string. */
    public Optional<String> ledgerWarning() {
        return Optional.ofNullable(result.ledgerWarning);
    }

    /** Whether the envelope's {@code data} is an object with a property of this name. */
    public boolean dataHas(String name) {
        return result.dataNames.contains(name);
    }

    /**
     * Whether the result's bytes can be passed on as one line as they are: an envelope written
     * without a line break between its tokens (the broker writes compact JSON; a line break inside
     * a string is always escaped).
     */
    public boolean isOneLine() {
        return result.oneLine;
    }

    /** The frame holding the result; the result is {@link #length()} bytes from {@link #offset()}. Not to be modified. */
    public byte[] frame() {
        return frame;
    }

    public int offset() {
        return result.start;
    }

    public int length() {
        return result.end - result.start;
    }

    /** The result as a tree (a new one on every call), the same tree {@code IpcJson.read} gives. */
    public JsonNode envelope() {
        if (result.start < 0) {
            return IpcJson.read(frame, CallResponse.class).result();
        }
        try (JsonParser parser = IpcFrames.FACTORY.createParser(ObjectReadContext.empty(), frame, offset(), length())) {
            return StreamingJson.read(parser, parser.nextToken());
        }
    }

    private static LomiException malformed(String why) {
        return new LomiException(ErrorCode.INVALID_ARGUMENT, "malformed CallResponse: " + why);
    }

    /** What one pass over the result learns: its span (objects only) and the envelope fields the helper reads. */
    private static final class Result {
        int start = -1;
        int end = -1;
        boolean oneLine;

        @Nullable
        String controlApiVersion;

        @Nullable
        String status;

        @Nullable
        String ledgerWarning;

        final List<String> dataNames = new ArrayList<>();

        static Result read(byte[] frame, JsonParser parser, JsonToken first) {
            Result result = new Result();
            if (first != JsonToken.START_OBJECT) {
                parser.skipChildren();
                return result;
            }
            int start = (int) parser.currentTokenLocation().getByteOffset();
            for (JsonToken token = parser.nextToken(); token == JsonToken.PROPERTY_NAME; token = parser.nextToken()) {
                result.property(parser.currentName(), parser, parser.nextToken());
            }
            int end = (int) parser.currentLocation().getByteOffset();
            if (start < 0 || end > frame.length || frame[start] != '{' || frame[end - 1] != '}') {
                throw new IllegalStateException("the parser placed the result at " + start + ".." + end);
            }
            int scanned = Utf8.scan(frame, start, end);
            if (scanned == Utf8.INVALID) {
                throw malformed("the result is not valid UTF-8");
            }
            result.start = start;
            result.end = end;
            result.oneLine = scanned == Utf8.ONE_LINE;
            return result;
        }

        private void property(String name, JsonParser parser, JsonToken value) {
            switch (name) {
                case "controlApiVersion":
                    controlApiVersion = stringOrSkip(parser, value);
                    return;
                case "status":
                    status = stringOrSkip(parser, value);
                    return;
                case "ledgerWarning":
                    ledgerWarning = stringOrSkip(parser, value);
                    return;
                case "data":
                    if (value == JsonToken.START_OBJECT) {
                        for (JsonToken t = parser.nextToken(); t == JsonToken.PROPERTY_NAME; t = parser.nextToken()) {
                            dataNames.add(parser.currentName());
                            parser.nextToken();
                            parser.skipChildren();
                        }
                        return;
                    }
                    parser.skipChildren();
                    return;
                default:
                    parser.skipChildren();
            }
        }

        private static @Nullable String stringOrSkip(JsonParser parser, JsonToken value) {
            if (value == JsonToken.VALUE_STRING) {
                return parser.getString();
            }
            parser.skipChildren();
            return null;
        }
    }
}
