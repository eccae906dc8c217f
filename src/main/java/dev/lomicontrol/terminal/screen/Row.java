package dev.lomicontrol.terminal.screen;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * One screen line as cells. A cell holds a code point, {@link #BLANK}, or {@link #TAIL} (the right
 * half of a two-cell character, whose left half carries {@link #WIDE}). Every operation keeps wide
 * characters whole: a write or shift that would split one blanks both halves. Combining marks live
 * in a lazily allocated side array so plain text costs nothing for them.
 */
final class Row {

    static final int BLANK = 0;
    static final int TAIL = -1;
    static final int WIDE = 1 << 30;
    static final int CODE_POINT = 0x1FFFFF;
    /** Longest run of combining marks kept on one cell (in UTF-16 units); more are dropped. */
    static final int MAX_MARKS = 16;

    final int[] cells;
    private String @Nullable [] marks;

    Row(int columns) {
        cells = new int[columns];
    }

    /** Writes a one- or two-cell character at {@code col} (a two-cell one needs {@code col + 1} on the row). */
    void put(int col, int codePoint, int width) {
        breakWideAt(col);
        if (width == 2) {
            breakWideAt(col + 1);
            cells[col] = codePoint | WIDE;
            cells[col + 1] = TAIL;
        } else {
            cells[col] = codePoint;
        }
        clearMarks(col, col + width);
    }

    /**
     * Copies printable ASCII from {@code data[from, limit)} into the cells from {@code col}, stopping at
     * the first other byte; returns the index after the last byte copied. The terminal's hot path.
     */
    int writeAscii(int col, byte[] data, int from, int limit) {
        int[] row = cells;
        if (col > 0 && row[col] == TAIL) {
            row[col - 1] = BLANK;
        }
        int i = from;
        int at = col;
        while (i < limit) {
            byte b = data[i];
            if (b < 0x20 || b == 0x7F) {
                break;
            }
            row[at++] = b;
            i++;
        }
        if (at < row.length && row[at] == TAIL) {
            row[at] = BLANK;
        }
        clearMarks(col, at);
        return i;
    }

    /** Prepares {@code [from, to)} for being overwritten: halves of wide characters cut at either end are blanked. */
    private void prepareRun(int from, int to) {
        breakWideAt(from);
        breakWideAt(to - 1);
        clearMarks(from, to);
    }

    /** Blanks {@code [from, to)}, also blanking halves of wide characters cut at either end. */
    void erase(int from, int to) {
        if (from >= to) {
            return;
        }
        prepareRun(from, to);
        Arrays.fill(cells, from, to, BLANK);
    }

    void clear() {
        Arrays.fill(cells, BLANK);
        marks = null;
    }

    /** Shifts {@code [col, end)} right by {@code count}, dropping what passes the end, and blanks the gap. */
    void insertBlanks(int col, int count) {
        int n = Math.min(count, cells.length - col);
        if (n <= 0) {
            return;
        }
        if (cells[col] == TAIL) {
            breakWideAt(col);
        }
        shift(col, col + n, cells.length - col - n);
        blank(col, col + n);
        if (isHead(cells.length - 1)) {
            blank(cells.length - 1, cells.length);
        }
    }

    /** Removes {@code count} cells at {@code col}, shifting the rest left and blanking the end. */
    void delete(int col, int count) {
        int n = Math.min(count, cells.length - col);
        if (n <= 0) {
            return;
        }
        breakWideAt(col);
        breakWideAt(col + n - 1);
        shift(col + n, col, cells.length - col - n);
        blank(cells.length - n, cells.length);
    }

    private void blank(int from, int to) {
        Arrays.fill(cells, from, to, BLANK);
        clearMarks(from, to);
    }

    private void shift(int from, int to, int length) {
        System.arraycopy(cells, from, cells, to, length);
        if (marks != null) {
            System.arraycopy(marks, from, marks, to, length);
        }
    }

    /** Appends a combining mark to the character at {@code col} (the left half if it is a tail). */
    void addMark(int col, int codePoint) {
        int at = cells[col] == TAIL && col > 0 ? col - 1 : col;
        if (marks == null) {
            marks = new String[cells.length];
        }
        String existing = marks[at] == null ? "" : marks[at];
        if (existing.length() + Character.charCount(codePoint) <= MAX_MARKS) {
            marks[at] = existing + Character.toString(codePoint);
        }
    }

    /** If a write at {@code col} would split a wide character, blanks its other half. */
    private void breakWideAt(int col) {
        int cell = cells[col];
        if (cell == TAIL) {
            if (col > 0) {
                cells[col - 1] = BLANK;
            }
            cells[col] = BLANK;
        } else if ((cell & WIDE) != 0 && col + 1 < cells.length) {
            cells[col + 1] = BLANK;
            cells[col] = BLANK;
        }
    }

    private boolean isHead(int col) {
        return col >= 0 && (cells[col] & WIDE) != 0 && cells[col] != TAIL;
    }

    private void clearMarks(int from, int to) {
        if (marks != null) {
            Arrays.fill(marks, from, to, null);
        }
    }

    /** A copy with {@code columns} cells: the left part kept, a wide character cut at the edge blanked. */
    Row resized(int columns) {
        Row copy = new Row(columns);
        int kept = Math.min(columns, cells.length);
        System.arraycopy(cells, 0, copy.cells, 0, kept);
        if (marks != null) {
            copy.marks = Arrays.copyOf(marks, columns);
        }
        if (copy.isHead(kept - 1)) {
            copy.blank(kept - 1, kept);
        }
        return copy;
    }

    /** The row as text: wide characters once, blanks as spaces, trailing spaces trimmed. */
    String text() {
        StringBuilder out = new StringBuilder(cells.length);
        for (int col = 0; col < cells.length; col++) {
            int cell = cells[col];
            if (cell == TAIL) {
                continue;
            }
            out.appendCodePoint(cell == BLANK ? ' ' : cell & CODE_POINT);
            if (marks != null && marks[col] != null) {
                out.append(marks[col]);
            }
        }
        int end = out.length();
        while (end > 0 && out.charAt(end - 1) == ' ') {
            end--;
        }
        out.setLength(end);
        return out.toString();
    }
}
