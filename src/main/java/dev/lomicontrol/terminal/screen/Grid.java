package dev.lomicontrol.terminal.screen;

import java.util.ArrayList;
import java.util.List;

/** One screen buffer (normal or alternate): its rows, and the line operations that move whole rows. */
final class Grid {

    private Row[] rows;

    Grid(int columns, int rowCount) {
        rows = new Row[rowCount];
        for (int i = 0; i < rowCount; i++) {
            rows[i] = new Row(columns);
        }
    }

    Row row(int index) {
        return rows[index];
    }

    /** Moves the lines of {@code [top, bottom]} up by {@code count}; blank lines enter at the bottom. */
    void scrollUp(int top, int bottom, int count) {
        int height = bottom - top + 1;
        int n = Math.min(count, height);
        if (n == 1) {
            Row recycled = rows[top];
            System.arraycopy(rows, top + 1, rows, top, height - 1);
            rows[bottom] = recycled;
            recycled.clear();
            return;
        }
        Row[] recycled = new Row[n];
        System.arraycopy(rows, top, recycled, 0, n);
        System.arraycopy(rows, top + n, rows, top, height - n);
        System.arraycopy(recycled, 0, rows, bottom - n + 1, n);
        clearRows(bottom - n + 1, bottom + 1);
    }

    /** Moves the lines of {@code [top, bottom]} down by {@code count}; blank lines enter at the top. */
    void scrollDown(int top, int bottom, int count) {
        int height = bottom - top + 1;
        int n = Math.min(count, height);
        Row[] recycled = new Row[n];
        System.arraycopy(rows, bottom - n + 1, recycled, 0, n);
        System.arraycopy(rows, top, rows, top + n, height - n);
        System.arraycopy(recycled, 0, rows, top, n);
        clearRows(top, top + n);
    }

    /** Blanks the rows {@code [from, to)}. */
    void clearRows(int from, int to) {
        for (int i = from; i < to; i++) {
            rows[i].clear();
        }
    }

    void clear() {
        clearRows(0, rows.length);
    }

    /** Keeps the top-left content: rows are cut or added at the bottom, cells at the right. */
    void resize(int columns, int rowCount) {
        Row[] resized = new Row[rowCount];
        for (int i = 0; i < rowCount; i++) {
            resized[i] = i < rows.length ? rows[i].resized(columns) : new Row(columns);
        }
        rows = resized;
    }

    List<String> lines() {
        List<String> lines = new ArrayList<>(rows.length);
        for (Row row : rows) {
            lines.add(row.text());
        }
        return lines;
    }
}
