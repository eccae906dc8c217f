package dev.lomicontrol.console;

import dev.lomicontrol.terminal.screen.ScreenSnapshot;
import java.util.Locale;

/**
 * Draws a terminal's screen model in the admin's terminal (Spring-free, for {@link TerminalView}).
 * Nothing of the agent's reaches the admin's terminal as a sequence: every character of the
 * snapshot that is a control character (C0, DEL, C1) or a bidirectional override/isolate is drawn
 * as {@code ?}, and the only escape sequences written are this class's own: cursor position (CUP),
 * erase, SGR reset and reverse video for the status line, cursor show/hide, and entering and leaving
 * the alternate screen ({@link #ENTER}, {@link #LEAVE}). The snapshot is clipped and padded to the
 * admin's size, scrolled so that its cursor row shows; the bottom row is the view's status line.
 */
final class ScreenRenderer {

    /** Alternate screen on, attributes reset, screen cleared, cursor hidden. */
    static final String ENTER = "\u001b[?1049h\u001b[0m\u001b[2J\u001b[?25l";

    /** Attributes reset, cursor shown, alternate screen off: the admin's terminal as it was. */
    static final String LEAVE = "\u001b[0m\u001b[?25h\u001b[?1049l";

    private ScreenRenderer() {}

    /** Rows the snapshot gets in a view of {@code rows} (one is the status line when there are at least two). */
    static int screenRows(int rows) {
        return rows >= 2 ? rows - 1 : Math.max(rows, 1);
    }

    /** One whole frame: every row redrawn, the status line, then the cursor where the snapshot has it (if it shows). */
    static String frame(ScreenSnapshot screen, int columns, int rows, String status) {
        int width = Math.max(columns, 1);
        int height = screenRows(rows);
        int top = Math.max(0, screen.cursorRow() - height + 1);
        StringBuilder out = new StringBuilder(width * (height + 1) + 64).append("\u001b[?25l\u001b[0m");
        for (int row = 0; row < height; row++) {
            int source = top + row;
            String line = source < screen.lines().size() ? screen.lines().get(source) : "";
            out.append(position(row, 0)).append(fit(line, width));
        }
        if (rows >= 2) {
            out.append(position(rows - 1, 0))
                    .append("\u001b[7m")
                    .append(fit(status, width - 1))
                    .append("\u001b[0m\u001b[K");
        }
        int cursorRow = screen.cursorRow() - top;
        if (screen.cursorVisible() && cursorRow >= 0 && cursorRow < height && screen.cursorColumn() < width) {
            out.append(position(cursorRow, screen.cursorColumn())).append("\u001b[?25h");
        }
        return out.toString();
    }

    /** CUP to a zero-based row and column. */
    private static String position(int row, int column) {
        return String.format(Locale.ROOT, "\u001b[%d;%dH", row + 1, column + 1);
    }

    /** {@code text} made printable, clipped to {@code width} cells and padded with spaces to exactly that. */
    static String fit(String text, int width) {
        StringBuilder out = new StringBuilder(width);
        int used = 0;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            int cells = cells(c);
            if (cells == 0) {
                continue;
            }
            if (used + cells > width) {
                break;
            }
            if (printable(c)) {
                out.appendCodePoint(c);
            } else {
                out.append('?');
            }
            used += cells;
        }
        while (used < width) {
            out.append(' ');
            used++;
        }
        return out.toString();
    }

    static boolean printable(int c) {
        return !(c < 0x20
                || (c >= 0x7f && c <= 0x9f)
                || (c >= 0x202a && c <= 0x202e)
                || (c >= 0x2066 && c <= 0x2069)
                || (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE)
                || c == 0xfeff);
    }

    /** Cells a code point takes: 0 for combining marks (dropped: they could stack on our own text), 2 for wide ones. */
    private static int cells(int c) {
        int type = Character.getType(c);
        if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.FORMAT) {
            return printable(c) ? 0 : 1;
        }
        boolean wide = (c >= 0x1100 && c <= 0x115f)
                || (c >= 0x2e80 && c <= 0xa4cf && c != 0x303f)
                || (c >= 0xac00 && c <= 0xd7a3)
                || (c >= 0xf900 && c <= 0xfaff)
                || (c >= 0xfe30 && c <= 0xfe4f)
                || (c >= 0xff00 && c <= 0xff60)
                || (c >= 0xffe0 && c <= 0xffe6)
                || (c >= 0x1f300 && c <= 0x1faff)
                || (c >= 0x20000 && c <= 0x3fffd);
        return wide ? 2 : 1;
    }
}
