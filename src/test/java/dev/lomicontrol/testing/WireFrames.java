package dev.lomicontrol.testing;

import java.nio.ByteBuffer;

/** Frames of the broker's wire as raw bytes: a 4-byte big-endian length, then the payload. */
public final class WireFrames {

    private WireFrames() {}

    /** {@code payload} behind its length prefix. */
    public static byte[] frame(byte[] payload) {
        return ByteBuffer.allocate(4 + payload.length)
                .putInt(payload.length)
                .put(payload)
                .array();
    }

    /** A length prefix alone, announcing {@code length} bytes. */
    public static byte[] prefix(int length) {
        return ByteBuffer.allocate(4).putInt(length).array();
    }
}
