package dev.lomicontrol.terminal;

import java.nio.charset.StandardCharsets;

/**
 * One page read from an output ring.
 *
 * @param bytes the page; for text reads it never ends inside a UTF-8 character
 * @param cursor where the page actually starts (later than the requested cursor when {@code gap})
 * @param nextCursor the cursor to pass for the following page
 * @param availableFrom the oldest offset the ring still holds
 * @param gap true when bytes between the requested cursor and {@code cursor} were lost (overwritten,
 *     or a cursor inside a UTF-8 character was moved forward)
 * @param end true when the page reaches the end of what is there now (the ring's end, or a command's
 *     end cursor)
 */
public record OutputPage(byte[] bytes, long cursor, long nextCursor, long availableFrom, boolean gap, boolean end) {

    /** The page decoded as UTF-8 (malformed bytes become U+FFFD). */
    public String text() {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
