package dev.lomicontrol.tools;

import dev.lomicontrol.core.WireString;

/** An opaque id: a panel, tab, document or request id (1-128 characters of {@code [A-Za-z0-9._:-]}). */
@WireString(minLength = 1, maxLength = 128, pattern = "[A-Za-z0-9._:-]+")
public record Token(String value) {

    @Override
    public String toString() {
        return value;
    }
}
