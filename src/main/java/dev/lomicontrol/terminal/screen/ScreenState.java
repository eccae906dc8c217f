package dev.lomicontrol.terminal.screen;

import org.jspecify.annotations.Nullable;

/**
 * The emulated terminal: both buffers, the cursor with its pending-wrap flag, the scroll region,
 * tab stops and modes, and the operations control sequences map to. Coordinates are zero-based;
 * every operation clamps its arguments, so no input can move the cursor off the grid.
 */
final class ScreenState {

    /** Where DECSC stores the cursor; restored by DECRC. */
    private record SavedCursor(int row, int col, boolean pendingWrap, boolean originMode) {}

    int columns;
    int rows;
    private final Grid normal;
    private final Grid alternate;
    private Grid grid;
    private int row;
    private int col;
    private boolean pendingWrap;
    private int top;
    private int bottom;
    private final TabStops tabStops;
    private @Nullable SavedCursor savedNormal;
    private @Nullable SavedCursor savedAlternate;
    private int lastGraphic = -1;
    final Modes modes = new Modes();
    String title = "";

    ScreenState(int columns, int rows) {
        this.columns = columns;
        this.rows = rows;
        normal = new Grid(columns, rows);
        alternate = new Grid(columns, rows);
        grid = normal;
        bottom = rows - 1;
        tabStops = new TabStops(columns);
    }

    // ---- printing

    /** Prints the run of printable ASCII bytes starting at {@code i}; returns the index after it. */
    int printAscii(byte[] data, int i, int end) {
        if (modes.insert) {
            print(data[i]);
            return i + 1;
        }
        int from = i;
        while (true) {
            if (pendingWrap) {
                wrap();
            }
            int stop = grid.row(row).writeAscii(col, data, from, Math.min(end, from + columns - col));
            lastGraphic = data[stop - 1];
            advance(stop - from);
            if (stop == end || data[stop] < 0x20 || data[stop] == 0x7F) {
                return stop;
            }
            from = stop;
        }
    }

    /** Prints one code point (≥ U+0020, not DEL or C1) with its East Asian width. */
    void print(int codePoint) {
        int width = CharWidth.of(codePoint);
        if (width == CharWidth.IGNORED) {
            return;
        }
        if (width == CharWidth.COMBINING) {
            attachMark(codePoint);
            return;
        }
        if (width == 2 && columns == 1) {
            width = 1;
        }
        if (pendingWrap) {
            wrap();
        }
        if (width == 2 && col == columns - 1) {
            if (modes.autowrap) {
                grid.row(row).erase(col, columns);
                wrap();
            } else {
                col--;
            }
        }
        if (modes.insert) {
            grid.row(row).insertBlanks(col, width);
        }
        grid.row(row).put(col, codePoint, width);
        lastGraphic = codePoint;
        advance(width);
    }

    private void advance(int width) {
        col += width;
        if (col >= columns) {
            col = columns - 1;
            pendingWrap = modes.autowrap;
        }
    }

    private void wrap() {
        pendingWrap = false;
        col = 0;
        index();
    }

    private void attachMark(int codePoint) {
        if (pendingWrap) {
            grid.row(row).addMark(col, codePoint);
        } else if (col > 0) {
            grid.row(row).addMark(col - 1, codePoint);
        }
    }

    /**
     * REP: prints the preceding character {@code count} times (at most one screenful). As in ECMA-48
     * it must directly follow that character: any control in between makes it a no-op.
     */
    void repeat(int count) {
        if (lastGraphic < 0) {
            return;
        }
        int n = Math.min(count, columns * rows);
        for (int i = 0; i < n; i++) {
            print(lastGraphic);
        }
    }

    /** Called for every control function, so that a later REP has no preceding character to repeat. */
    void forgetLastGraphic() {
        lastGraphic = -1;
    }

    // ---- C0 controls and simple motions

    /** Executes a C0 control character; those without a screen effect (BEL, SO, SI, …) are ignored. */
    void control(int c) {
        switch (c) {
            case 0x08 -> backspace();
            case 0x09 -> tab(1);
            case 0x0A, 0x0B, 0x0C -> lineFeed();
            case 0x0D -> carriageReturn();
            default -> {}
        }
    }

    void lineFeed() {
        pendingWrap = false;
        index();
    }

    void carriageReturn() {
        pendingWrap = false;
        col = 0;
    }

    private void backspace() {
        pendingWrap = false;
        if (col > 0) {
            col--;
        }
    }

    /** IND: down one line, scrolling the region when on its bottom margin. */
    void index() {
        if (row == bottom) {
            grid.scrollUp(top, bottom, 1);
        } else if (row < rows - 1) {
            row++;
        }
    }

    /** RI: up one line, scrolling the region down when on its top margin. */
    void reverseIndex() {
        pendingWrap = false;
        if (row == top) {
            grid.scrollDown(top, bottom, 1);
        } else if (row > 0) {
            row--;
        }
    }

    void nextLine() {
        carriageReturn();
        index();
    }

    // ---- tab stops

    void tab(int count) {
        pendingWrap = false;
        col = tabStops.next(col, count);
    }

    void backTab(int count) {
        pendingWrap = false;
        col = tabStops.previous(col, count);
    }

    void setTabStop() {
        tabStops.set(col);
    }

    /** TBC: 0 clears the stop at the cursor, 3 clears all. */
    void clearTabStops(int mode) {
        if (mode == 0) {
            tabStops.clear(col);
        } else if (mode == 3) {
            tabStops.clearAll();
        }
    }

    // ---- cursor addressing

    /** CUU: up, stopping at the top margin when the cursor starts inside the region. */
    void cursorUp(int count) {
        int limit = row >= top ? top : 0;
        setRow(Math.max(limit, row - count));
    }

    /** CUD: down, stopping at the bottom margin when the cursor starts inside the region. */
    void cursorDown(int count) {
        int limit = row <= bottom ? bottom : rows - 1;
        setRow(Math.min(limit, row + count));
    }

    void cursorForward(int count) {
        setColumn(col + count);
    }

    void cursorBack(int count) {
        setColumn(col - count);
    }

    /** CHA/HPA: one-based column. */
    void columnAbsolute(int column) {
        setColumn(column - 1);
    }

    /** VPA: one-based row, relative to the top margin in origin mode. */
    void rowAbsolute(int oneBasedRow) {
        if (modes.origin) {
            setRow(Math.max(top, Math.min(bottom, top + oneBasedRow - 1)));
        } else {
            setRow(Math.max(0, Math.min(rows - 1, oneBasedRow - 1)));
        }
    }

    /** CUP/HVP: one-based row and column. */
    void moveTo(int oneBasedRow, int oneBasedColumn) {
        rowAbsolute(oneBasedRow);
        setColumn(oneBasedColumn - 1);
    }

    private void setRow(int newRow) {
        pendingWrap = false;
        row = newRow;
    }

    private void setColumn(int newColumn) {
        pendingWrap = false;
        col = Math.max(0, Math.min(columns - 1, newColumn));
    }

    int row() {
        return row;
    }

    int col() {
        return col;
    }

    // ---- accessors for Editing

    Grid grid() {
        return grid;
    }

    int top() {
        return top;
    }

    int bottom() {
        return bottom;
    }

    void clearPendingWrap() {
        pendingWrap = false;
    }

    /** DECSTBM: one-based inclusive margins, 0 meaning the screen edge; invalid ones are ignored. */
    void setMargins(int oneBasedTop, int oneBasedBottom) {
        int t = Math.max(1, oneBasedTop);
        int b = oneBasedBottom == 0 ? rows : Math.min(rows, oneBasedBottom);
        if (t >= b) {
            return;
        }
        top = t - 1;
        bottom = b - 1;
        moveTo(1, 1);
    }

    // ---- saved cursor and buffers

    void saveCursor() {
        SavedCursor saved = new SavedCursor(row, col, pendingWrap, modes.origin);
        if (grid == normal) {
            savedNormal = saved;
        } else {
            savedAlternate = saved;
        }
    }

    void restoreCursor() {
        SavedCursor saved = grid == normal ? savedNormal : savedAlternate;
        if (saved == null) {
            saved = new SavedCursor(0, 0, false, false);
        }
        modes.origin = saved.originMode();
        row = Math.min(saved.row(), rows - 1);
        col = Math.min(saved.col(), columns - 1);
        pendingWrap = saved.pendingWrap() && saved.col() == col && modes.autowrap;
    }

    /** Switches to the alternate buffer, clearing it; a no-op when already there. */
    void enterAlternate() {
        if (grid != alternate) {
            grid = alternate;
            alternate.clear();
        }
    }

    void leaveAlternate() {
        grid = normal;
    }

    boolean alternateActive() {
        return grid == alternate;
    }

    // ---- whole-terminal changes

    /** RIS: both buffers blank, cursor home, default modes, margins and tab stops (the title stays). */
    void reset() {
        normal.clear();
        alternate.clear();
        grid = normal;
        modes.reset();
        softReset();
        row = 0;
        col = 0;
        savedNormal = null;
        savedAlternate = null;
        lastGraphic = -1;
        tabStops.reset();
    }

    /** DECSTR: default modes and margins, cursor shown, saved cursor at home; the screen is kept. */
    void softReset() {
        modes.softReset();
        pendingWrap = false;
        top = 0;
        bottom = rows - 1;
        savedNormal = null;
        savedAlternate = null;
    }

    /** Keeps the top-left content of both buffers, clamps the cursor, resets the scroll region. */
    void resize(int newColumns, int newRows) {
        normal.resize(newColumns, newRows);
        alternate.resize(newColumns, newRows);
        tabStops.resize(newColumns);
        columns = newColumns;
        rows = newRows;
        top = 0;
        bottom = rows - 1;
        row = Math.min(row, rows - 1);
        col = Math.min(col, columns - 1);
        pendingWrap = false;
    }

    ScreenSnapshot snapshot() {
        return new ScreenSnapshot(columns, rows, row, col, modes.cursorVisible, grid == alternate, grid.lines(), title);
    }
}
