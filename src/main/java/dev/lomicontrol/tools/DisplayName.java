package dev.lomicontrol.tools;

import dev.lomicontrol.core.WireString;

/** A name or title: 1-256 code points on one line, not blank, no control characters (C0, DEL, C1). */
@WireString(maxLength = 256, pattern = Matches.NOT_ONLY_SPACES + Matches.NO_CONTROLS)
public record DisplayName(String value) {

    @Override
    public String toString() {
        return value;
    }
}
