package dev.lomicontrol.tools;

import dev.lomicontrol.core.WireString;

/** A SHA-256 in lower-case hex: disk, directory and entry revisions, artifact digests. */
@WireString(minLength = 64, maxLength = 64, pattern = "[0-9a-f]{64}")
public record Hex64(String value) {

    @Override
    public String toString() {
        return value;
    }
}
