package dev.lomicontrol.episodes;

import java.util.Locale;

/**
 * Why an episode ended. {@code closed} (the client detached deliberately) and {@code shutdown}
 * (the broker stopped) are deliberate ends; {@code expired} (the reaper closed it after the client
 * stayed away longer than the grace) means the work was interrupted. Wire and column form is the
 * lower-case name.
 */
public enum CloseReason {
    CLOSED,
    EXPIRED,
    SHUTDOWN;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True only for {@code expired}: nobody said the work was over. */
    public boolean interrupted() {
        return this == EXPIRED;
    }

    /** {@code "interrupted"} or {@code "closed"}: what the record says about how the work ended. */
    public String ending() {
        return interrupted() ? "interrupted" : "closed";
    }

    public static CloseReason fromWire(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
