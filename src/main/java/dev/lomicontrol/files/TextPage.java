package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.charset.StandardCharsets;

/**
 * One page of a text in UTF-16 units, cut on scalar boundaries. {@code nextUtf16} is where the next
 * page starts; {@code truncated} is true while text remains after this page.
 */
public record TextPage(String text, int startUtf16, int nextUtf16, int totalUtf16, boolean truncated) {

    /**
     * The page of {@code whole} from {@code startUtf16}, at most {@code maxChars} UTF-16 units (at
     * least 2, so a page always advances past a surrogate pair). A start outside the text or between
     * the two halves of a surrogate pair is {@code INVALID_ARGUMENT}; an end that would split a pair
     * is moved back one unit.
     */
    public static TextPage of(String whole, int startUtf16, int maxChars) {
        int total = whole.length();
        requireInside(total, startUtf16, maxChars);
        if (splitsPair(whole, startUtf16)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "startUtf16 " + startUtf16 + " splits a surrogate pair");
        }
        int end = (int) Math.min(total, (long) startUtf16 + maxChars);
        if (splitsPair(whole, end)) {
            end--;
        }
        return new TextPage(whole.substring(startUtf16, end), startUtf16, end, total, end < total);
    }

    /**
     * The same page as {@link #of} of an ASCII text held as bytes ({@code ascii[offset, offset + total)}, one
     * UTF-16 unit per byte, so nothing to keep from being split), without decoding the rest of the text.
     */
    static TextPage ofAscii(byte[] ascii, int offset, int total, int startUtf16, int maxChars) {
        requireInside(total, startUtf16, maxChars);
        int end = (int) Math.min(total, (long) startUtf16 + maxChars);
        return new TextPage(
                new String(ascii, offset + startUtf16, end - startUtf16, StandardCharsets.ISO_8859_1),
                startUtf16,
                end,
                total,
                end < total);
    }

    private static void requireInside(int total, int startUtf16, int maxChars) {
        if (maxChars < 2) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "maxChars must be at least 2");
        }
        if (startUtf16 < 0 || startUtf16 > total) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "startUtf16 " + startUtf16 + " is outside 0.." + total);
        }
    }

    /** True when {@code index} falls between a high and a low surrogate. */
    static boolean splitsPair(String s, int index) {
        return index > 0
                && index < s.length()
                && Character.isHighSurrogate(s.charAt(index - 1))
                && Character.isLowSurrogate(s.charAt(index));
    }
}
