package dev.lomicontrol.episodes;

import java.util.Locale;

/** Where an episode is in its life. Wire form is the lower-case name. */
public enum EpisodeState {
    /** Held by a live session whose traffic keeps it alive. */
    ATTACHED,
    /** Its session ended; resumable by the same externalId until the reattach grace passes. */
    DETACHED,
    /** Over; see {@link CloseReason}. */
    CLOSED;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
