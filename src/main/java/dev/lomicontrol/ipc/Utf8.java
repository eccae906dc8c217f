package dev.lomicontrol.ipc;

/**
 * One pass over bytes that a helper passes on as they are: whether they are well-formed UTF-8
 * (the Unicode Standard's Table 3-7: no overlong form, no surrogate, nothing above U+10FFFF — what
 * the JDK's strict decoder accepts) and whether they hold a line break. The JDK has no
 * validate-only UTF-8 check; decoding to check would allocate twice the bytes and make two passes
 * over each answer (ADR 0015).
 */
final class Utf8 {

    static final int INVALID = -1;
    static final int ONE_LINE = 0;
    static final int WITH_LINE_BREAK = 1;

    private Utf8() {}

    /** {@link #INVALID}, or whether {@code bytes[start, end)} hold a CR or LF ({@link #WITH_LINE_BREAK}) or not. */
    static int scan(byte[] bytes, int start, int end) {
        int found = ONE_LINE;
        int i = start;
        while (i < end) {
            int lead = bytes[i];
            if (lead >= 0) {
                if (lead == '\n' || lead == '\r') {
                    found = WITH_LINE_BREAK;
                }
                i++;
                continue;
            }
            int length = sequenceEnd(bytes, i, end);
            if (length < 0) {
                return INVALID;
            }
            i += length;
        }
        return found;
    }

    /** The length of the multi-byte sequence at {@code i}, or -1 when it is not well-formed. */
    private static int sequenceEnd(byte[] bytes, int i, int end) {
        int lead = bytes[i] & 0xFF;
        int continuations;
        int low = 0x80;
        int high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            continuations = 1;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            continuations = 2;
            low = lead == 0xE0 ? 0xA0 : 0x80; // no overlong three-byte form
            high = lead == 0xED ? 0x9F : 0xBF; // no surrogate
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            continuations = 3;
            low = lead == 0xF0 ? 0x90 : 0x80; // no overlong four-byte form
            high = lead == 0xF4 ? 0x8F : 0xBF; // nothing above U+10FFFF
        } else {
            return -1;
        }
        if (i + continuations >= end) {
            return -1;
        }
        int second = bytes[i + 1] & 0xFF;
        if (second < low || second > high) {
            return -1;
        }
        for (int k = 2; k <= continuations; k++) {
            if ((bytes[i + k] & 0xC0) != 0x80) {
                return -1;
            }
        }
        return continuations + 1;
    }
}
