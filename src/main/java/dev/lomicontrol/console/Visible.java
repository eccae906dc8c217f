package dev.lomicontrol.console;

/**
 * Makes text safe for the admin's terminal: everything the console prints may carry agent-chosen
 * text (commit subjects, file names, paths, plans, titles, client labels), and a raw ESC, CR or
 * OSC sequence there could rewrite or hide what the admin approves, or set the clipboard. Every
 * C0 control except newline and tab, DEL, every C1 control and the bidirectional overrides and
 * isolates are shown as {@code \\uXXXX} ({@code \\r} for CR); nothing else changes.
 */
final class Visible {

    private Visible() {}

    static String text(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!escaped(c)) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            out.append(c == '\r' ? "\\r" : String.format("\\u%04x", (int) c));
        }
        return out == null ? text : out.toString();
    }

    /**
     * {@link #text} for agent text that must stay on one line (a decision's summary, a notice): a
     * newline is shown as {@code \n} too, so a file name or commit subject with LF cannot add
     * lines that look like the console's own (security review 2026-12-06, N8).
     */
    static String line(String text) {
        return text(text).replace("\n", "\\n");
    }

    private static boolean escaped(char c) {
        if (c == '\n' || c == '\t') {
            return false;
        }
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
    }
}
