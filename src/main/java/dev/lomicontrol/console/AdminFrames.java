package dev.lomicontrol.console;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Optional;

/**
 * Admin socket framing: a 4-byte big-endian length, then that many bytes of UTF-8 JSON. Requests
 * are at most {@value #MAX_REQUEST} bytes, responses at most {@value #MAX_RESPONSE}. A frame over
 * the limit, empty, or cut short is an {@link IOException}; the caller closes that connection.
 */
final class AdminFrames {

    static final int MAX_REQUEST = 64 * 1024;
    static final int MAX_RESPONSE = 8 * 1024 * 1024;

    private AdminFrames() {}

    /** One frame's payload; empty when the peer closed cleanly before a new frame began. */
    static Optional<byte[]> read(ReadableByteChannel channel, int max) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(4);
        if (!fill(channel, header, true)) {
            return Optional.empty();
        }
        int length = header.flip().getInt();
        if (length <= 0 || length > max) {
            throw new IOException(
                    "frame of " + Integer.toUnsignedString(length) + " bytes refused (limit " + max + ")");
        }
        ByteBuffer payload = ByteBuffer.allocate(length);
        fill(channel, payload, false);
        return Optional.of(payload.array());
    }

    static void write(WritableByteChannel channel, byte[] payload, int max) throws IOException {
        if (payload.length == 0 || payload.length > max) {
            throw new IOException("frame of " + payload.length + " bytes refused (limit " + max + ")");
        }
        ByteBuffer frame = ByteBuffer.allocate(4 + payload.length)
                .putInt(payload.length)
                .put(payload)
                .flip();
        while (frame.hasRemaining()) {
            channel.write(frame);
        }
    }

    /** Fills {@code buffer}; false on EOF before the first byte when {@code eofAllowed}, else EOF is an error. */
    private static boolean fill(ReadableByteChannel channel, ByteBuffer buffer, boolean eofAllowed) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                if (eofAllowed && buffer.position() == 0) {
                    return false;
                }
                throw new EOFException("connection closed inside a frame");
            }
        }
        return true;
    }
}
