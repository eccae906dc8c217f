package dev.lomicontrol.ledger;

import java.util.Locale;

/** What is known about an operation's effect on the real resource. Wire form is the lower-case name. */
public enum EffectState {
    NONE,
    PARTIAL,
    COMPLETE,
    UNKNOWN;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static EffectState fromWire(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
