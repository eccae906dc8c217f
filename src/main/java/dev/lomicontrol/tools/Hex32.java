package dev.lomicontrol.tools;

import dev.lomicontrol.core.WireString;

/** A terminal session id or a lease id: 32 lower-case hex digits. */
@WireString(minLength = 32, maxLength = 32, pattern = "[0-9a-f]{32}")
public record Hex32(String value) {

    @Override
    public String toString() {
        return value;
    }
}
