package dev.lomicontrol.episodes;

import dev.lomicontrol.core.ErrorCode;
import java.util.Optional;

/** The outcome of {@link Episodes#attach}. */
public sealed interface AttachResult {

    /**
     * The caller now holds {@code episode}. {@code resumed} says it existed before (its
     * {@code openedAt} is unchanged); {@code released} is the caller's previous episode, left
     * detached because it attached to another id.
     */
    record Attached(Episode episode, boolean resumed, Optional<Episode> released) implements AttachResult {}

    /** Nothing changed (the broker is stopping). */
    record Refused(ErrorCode code, String message) implements AttachResult {}
}
