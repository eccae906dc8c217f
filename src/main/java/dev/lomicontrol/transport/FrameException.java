package dev.lomicontrol.transport;

import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * Why a frame operation failed. The channel is closed afterwards in every case, except when {@link
 * FrameChannel#write} refuses a payload locally (TOO_LARGE or EMPTY) before writing anything.
 */
public final class FrameException extends IOException {

    private static final long serialVersionUID = 1L;

    /** Stable reasons; the channel's first recorded reason is reported by every later operation. */
    public enum Reason {
        /** A length prefix (or an outbound payload) over the limit. */
        TOO_LARGE,
        /** A zero length prefix (or an empty outbound payload). */
        EMPTY,
        /** A frame, an idle wait, a write flush or a TLS handshake did not finish in time. */
        DEADLINE,
        /** The peer closed, the channel was closed locally, or the waiting thread was interrupted. */
        CLOSED,
        /** A byte arrived while the channel was strict (one request in flight). */
        PIPELINED,
        /** The TLS handshake failed (wrong pin, unapproved certificate, replay, garbage) or TLS broke later. */
        TLS_FAILED
    }

    private final Reason reason;

    public FrameException(Reason reason, String message) {
        this(reason, message, null);
    }

    public FrameException(Reason reason, String message, @Nullable Throwable cause) {
        super(reason + ": " + message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
