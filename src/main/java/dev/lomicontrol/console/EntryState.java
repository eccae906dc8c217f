package dev.lomicontrol.console;

import java.util.Locale;

/** What a client config holds under {@code lomi-control}, as {@code client list} reports it. */
enum EntryState {
    /** Every field lomi-control owns is what {@code client register} would write now. */
    CURRENT,
    /** Written by register for another launcher path, data directory or key, or by an older version: register again. */
    STALE,
    /** One of our fields was changed into something register never writes; register resets it. */
    HAND_EDITED,
    /** An entry (this broker has no key yet to compare it with). */
    PRESENT,
    ABSENT;

    /** The word {@code client list} prints ({@code hand-edited}, …). */
    String wire() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
