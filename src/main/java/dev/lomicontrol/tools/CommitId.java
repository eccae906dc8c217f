package dev.lomicontrol.tools;

import dev.lomicontrol.core.WireString;

/** A full git object id: 40 (SHA-1) or 64 (SHA-256) lower-case hex digits. */
@WireString(minLength = 40, maxLength = 64, pattern = "[0-9a-f]{40}|[0-9a-f]{64}")
public record CommitId(String value) {

    @Override
    public String toString() {
        return value;
    }
}
