package dev.lomicontrol.mcp;

import dev.lomicontrol.ipc.CallAnswer;
import dev.lomicontrol.json.StreamingJson;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.POJONode;

/**
 * A broker envelope in a reply tree, kept as the bytes the broker wrote (checked by {@link
 * CallAnswer}: one JSON object, strict UTF-8, on one line). {@link McpJson} writes a {@link #value}
 * node as those bytes and a {@link #text} node as a JSON string whose text is those bytes — the
 * {@code structuredContent} and the text block of a forwarded call's result — so a page of a file
 * crosses the helper without being decoded, re-encoded and escaped again (ADR 0015).
 */
final class RawJson implements SerializableString, StreamingJson.Writable {

    /** The envelope as the text of a JSON string. */
    record Text(RawJson json) implements StreamingJson.Writable {
        @Override
        public void writeTo(JsonGenerator generator) {
            generator.writeUTF8String(json.bytes, json.offset, json.length);
        }
    }

    private final byte[] bytes;
    private final int offset;
    private final int length;

    private RawJson(byte[] bytes, int offset, int length) {
        this.bytes = bytes;
        this.offset = offset;
        this.length = length;
    }

    /** A node written as the answer's envelope, verbatim. */
    static JsonNode value(CallAnswer answer) {
        return new POJONode(of(answer));
    }

    /**
     * A node written as {@code json} verbatim: one compact JSON value the helper wrote itself
     * ({@link McpJson#line}; the build's tool schemas), never bytes from outside.
     */
    static JsonNode value(byte[] json) {
        return new POJONode(new RawJson(json, 0, json.length));
    }

    /** A node written as a JSON string holding the answer's envelope as text. */
    static JsonNode text(CallAnswer answer) {
        return new POJONode(new Text(of(answer)));
    }

    private static RawJson of(CallAnswer answer) {
        if (!answer.isOneLine()) {
            throw new IllegalArgumentException("only a one-line envelope is passed on as it is");
        }
        return new RawJson(answer.frame(), answer.offset(), answer.length());
    }

    /** The same bytes (trees holding raw nodes compare by what they write). */
    @Override
    public boolean equals(Object other) {
        return other instanceof RawJson raw
                && Arrays.equals(bytes, offset, offset + length, raw.bytes, raw.offset, raw.offset + raw.length);
    }

    @Override
    public int hashCode() {
        int hash = 1;
        for (int i = offset; i < offset + length; i++) {
            hash = 31 * hash + bytes[i];
        }
        return hash;
    }

    /** Written as the bytes themselves. */
    @Override
    public void writeTo(JsonGenerator generator) {
        generator.writeRawValue(this);
    }

    // SerializableString: the generator takes the "unquoted UTF-8" form, which is the bytes themselves.

    @Override
    public int appendUnquotedUTF8(byte[] buffer, int at) {
        if (at + length > buffer.length) {
            return -1;
        }
        System.arraycopy(bytes, offset, buffer, at, length);
        return length;
    }

    @Override
    public byte[] asUnquotedUTF8() {
        return Arrays.copyOfRange(bytes, offset, offset + length);
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
        out.write(bytes, offset, length);
        return length;
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer buffer) {
        if (length > buffer.remaining()) {
            return -1;
        }
        buffer.put(bytes, offset, length);
        return length;
    }

    @Override
    public String getValue() {
        return new String(bytes, offset, length, StandardCharsets.UTF_8);
    }

    @Override
    public int charLength() {
        return getValue().length();
    }

    @Override
    public int appendUnquoted(char[] buffer, int at) {
        return quoted().appendUnquoted(buffer, at);
    }

    @Override
    public char[] asQuotedChars() {
        return quoted().asQuotedChars();
    }

    @Override
    public byte[] asQuotedUTF8() {
        return quoted().asQuotedUTF8();
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int at) {
        return quoted().appendQuotedUTF8(buffer, at);
    }

    @Override
    public int appendQuoted(char[] buffer, int at) {
        return quoted().appendQuoted(buffer, at);
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) throws IOException {
        return quoted().writeQuotedUTF8(out);
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) throws IOException {
        return quoted().putQuotedUTF8(buffer);
    }

    /** The rarely used forms, through Jackson's own string (the envelope decoded once). */
    private SerializableString quoted() {
        return new SerializedString(getValue());
    }

    @Override
    public String toString() {
        return getValue();
    }
}
