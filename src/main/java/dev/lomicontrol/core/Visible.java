package dev.lomicontrol.core;

/**
 * Makes text safe for the admin's terminal: what the console prints and what the broker logs may
 * carry agent-chosen text (commit subjects, file names, paths, plans, titles, client labels), and a
 * raw ESC, CR or OSC sequence there could rewrite or hide what the admin approves, or set the
 * clipboard. Every C0 control except newline and tab, DEL, every C1 control and the bidirectional
 * overrides and isolates are shown as {@code \\uXXXX} ({@code \\r} for CR); nothing else changes.
 */
public final class Visible {

    private Visible() {}

    /** {@code text} with every control but newline and tab shown escaped (console output, which may span lines). */
    public static String text(String text) {
        return escape(text, false);
    }

    /**
     * {@code text} as one line: like {@link #text}, and a newline is shown as {@code \\n} too, so that
     * text cannot begin a line of its own (a log message cannot fake the next log line).
     */
    public static String line(String text) {
        return escape(text, true);
    }

    private static String escape(String text, boolean newline) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!escaped(c, newline)) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            out.append(
                    c == '\r' ? "\\r" : c == '\n' ? "\\n" : String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
        }
        return out == null ? text : out.toString();
    }

    private static boolean escaped(char c, boolean newline) {
        if (c == '\t' || (c == '\n' && !newline)) {
            return false;
        }
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
    }
}
