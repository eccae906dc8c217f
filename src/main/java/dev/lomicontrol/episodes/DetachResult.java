package dev.lomicontrol.episodes;

import dev.lomicontrol.core.ErrorCode;

/** The outcome of {@link Episodes#detach}. */
public sealed interface DetachResult {

    /** The episode is closed with reason {@code closed}, durably. */
    record Closed(Episode episode) implements DetachResult {}

    /**
     * Nothing changed: no such episode, or it is attached to another session (both
     * TARGET_NOT_FOUND, so the answer reveals nothing), or the broker is stopping (APP_CLOSING).
     */
    record Refused(ErrorCode code, String message) implements DetachResult {}
}
