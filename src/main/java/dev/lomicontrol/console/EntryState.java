package dev.lomicontrol.console;

/** What a client config holds under {@code lomi-control}, as {@code client list} reports it. */
enum EntryState {
    /** Exactly the entry {@code client register} would write now. */
    CURRENT,
    /** An entry for another command, data directory or key: run {@code client register} again. */
    DIFFERENT,
    /** An entry (this broker has no key yet to compare it with). */
    PRESENT,
    ABSENT
}
