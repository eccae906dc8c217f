package dev.lomicontrol.terminal.screen;

import java.util.List;

/**
 * What a terminal's screen shows at one moment: the visible rows as text (trailing blanks trimmed),
 * the cursor, and whether a full-screen program switched to the alternate buffer.
 *
 * @param cursorRow zero-based
 * @param cursorColumn zero-based
 */
public record ScreenSnapshot(
        int columns,
        int rows,
        int cursorRow,
        int cursorColumn,
        boolean cursorVisible,
        boolean alternate,
        List<String> lines,
        String title) {

    public ScreenSnapshot {
        lines = List.copyOf(lines);
    }
}
