package dev.lomicontrol.transport;

import dev.lomicontrol.transport.FrameException.Reason;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** Frame limits (SPEC §12). A frame is a 4-byte big-endian length (1..limit) followed by that many bytes. */
public final class Frames {

    /** Largest payload of any frame. */
    public static final int MAX_FRAME_BYTES = 8 * 1024 * 1024;

    /** Largest payload of handshake, enrollment and metadata frames. */
    public static final int MAX_METADATA_BYTES = 64 * 1024;

    /** Once the first byte of a frame has arrived, the whole frame must arrive within this. */
    public static final Duration FRAME_DEADLINE = Duration.ofSeconds(5);

    static final int PREFIX_BYTES = Integer.BYTES;

    /** A deadline that never comes (see {@link #deadlineAfter}). */
    static final long FOREVER = Long.MAX_VALUE;

    /** How a channel records a peer's fault and closes: the exception to throw. */
    @FunctionalInterface
    interface Failure {
        FrameException fail(Reason reason, String detail);
    }

    private Frames() {}

    /** Refuses a read limit outside 1..{@link #MAX_FRAME_BYTES} (a programming error, not a peer fault). */
    static int requireLimit(int maxBytes) {
        if (maxBytes < 1 || maxBytes > MAX_FRAME_BYTES) {
            throw new IllegalArgumentException("maxBytes must be 1.." + MAX_FRAME_BYTES + ", was " + maxBytes);
        }
        return maxBytes;
    }

    /** Refuses (through {@code failure}, which closes the channel) a frame whose prefix announced {@code length}. */
    static void requireAnnounced(int length, int maxBytes, Failure failure) throws FrameException {
        if (length == 0) {
            throw failure.fail(Reason.EMPTY, "a frame announced zero bytes");
        }
        if (length < 0 || length > maxBytes) {
            throw failure.fail(
                    Reason.TOO_LARGE,
                    "a frame announced " + Integer.toUnsignedString(length) + " bytes, limit " + maxBytes);
        }
    }

    /** {@code startNanos + duration}; {@link #FOREVER} for no duration or one longer than a year. */
    static long deadlineAfter(long startNanos, @Nullable Duration duration) {
        if (duration == null || duration.compareTo(Duration.ofDays(365)) > 0) {
            return FOREVER;
        }
        return startNanos + Math.max(0, duration.toNanos());
    }

    /** Refuses, before anything is sent, a payload no peer may receive: empty or over {@link #MAX_FRAME_BYTES}. */
    static void requireWritable(byte[] payload) throws FrameException {
        if (payload.length > MAX_FRAME_BYTES) {
            throw new FrameException(
                    FrameException.Reason.TOO_LARGE,
                    "refused to write " + payload.length + " bytes, limit " + MAX_FRAME_BYTES);
        }
        if (payload.length == 0) {
            throw new FrameException(FrameException.Reason.EMPTY, "refused to write an empty frame");
        }
    }

    /** Refuses a zero, negative or absurd deadline. */
    static Duration requirePositive(Duration duration, String what) {
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, was " + duration);
        }
        return duration;
    }
}
