package dev.lomicontrol.terminal.screen;

/**
 * Incremental UTF-8 decoder that keeps a partial sequence across calls, so PTY output may be split
 * anywhere. Ill-formed input becomes U+FFFD following the "maximal subpart" rule: a byte that cannot
 * continue the pending sequence ends it with one U+FFFD and is then decoded afresh.
 */
final class Utf8Decoder {

    /** The byte was consumed; the code point is not complete yet. */
    static final int MORE = -1;
    /** The pending sequence was ill-formed: emit U+FFFD, then decode the same byte again. */
    static final int REPLAY = -2;

    static final int REPLACEMENT = 0xFFFD;

    private int needed;
    private int codePoint;
    private int lower = 0x80;
    private int upper = 0xBF;

    /** True when no multi-byte sequence is pending, so an ASCII byte is a character by itself. */
    boolean idle() {
        return needed == 0;
    }

    /** Decodes one byte (0..255): a code point, {@link #MORE} or {@link #REPLAY}. */
    int decode(int b) {
        if (needed == 0) {
            return start(b);
        }
        if (b < lower || b > upper) {
            reset();
            return REPLAY;
        }
        lower = 0x80;
        upper = 0xBF;
        codePoint = (codePoint << 6) | (b & 0x3F);
        return --needed == 0 ? codePoint : MORE;
    }

    private int start(int b) {
        if (b < 0x80) {
            return b;
        }
        if (b >= 0xC2 && b <= 0xDF) {
            return begin(1, b & 0x1F, 0x80, 0xBF);
        }
        if (b >= 0xE0 && b <= 0xEF) {
            return begin(2, b & 0x0F, b == 0xE0 ? 0xA0 : 0x80, b == 0xED ? 0x9F : 0xBF);
        }
        if (b >= 0xF0 && b <= 0xF4) {
            return begin(3, b & 0x07, b == 0xF0 ? 0x90 : 0x80, b == 0xF4 ? 0x8F : 0xBF);
        }
        return REPLACEMENT;
    }

    private int begin(int continuationBytes, int bits, int lowerBound, int upperBound) {
        needed = continuationBytes;
        codePoint = bits;
        lower = lowerBound;
        upper = upperBound;
        return MORE;
    }

    /** Drops any pending partial sequence. */
    void reset() {
        needed = 0;
        codePoint = 0;
        lower = 0x80;
        upper = 0xBF;
    }
}
