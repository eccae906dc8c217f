package dev.lomicontrol.terminal.screen;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.List;

/** Test helper: feeds text to a {@link Screen} as UTF-8 and reads back lines, cursor and replies. */
final class ScreenDriver {

    final Screen screen;

    ScreenDriver(int columns, int rows) {
        screen = new Screen(columns, rows);
    }

    /** Feeds {@code text} (ESC written as {@code \033}) and returns the reply bytes as text. */
    String write(String text) {
        return reply(text.getBytes(UTF_8));
    }

    String reply(byte[] bytes) {
        return new String(screen.feed(bytes, 0, bytes.length), US_ASCII);
    }

    List<String> lines() {
        return screen.snapshot().lines();
    }

    String line(int row) {
        return lines().get(row);
    }

    /** The cursor as "row,column", zero-based. */
    String cursor() {
        ScreenSnapshot snapshot = screen.snapshot();
        return snapshot.cursorRow() + "," + snapshot.cursorColumn();
    }

    /** Fills every row with its own letter so erase and scroll effects are visible. */
    ScreenDriver filled() {
        ScreenSnapshot snapshot = screen.snapshot();
        StringBuilder text = new StringBuilder("\033[H");
        for (int row = 0; row < snapshot.rows(); row++) {
            text.append("\033[")
                    .append(row + 1)
                    .append(";1H")
                    .append(String.valueOf((char) ('a' + row)).repeat(snapshot.columns()));
        }
        write(text.append("\033[H").toString());
        return this;
    }
}
