package dev.lomicontrol.terminal.screen;

import java.util.Arrays;

/**
 * The erase, insert, delete and scroll operations (ED, EL, ECH, ICH, DCH, IL, DL, SU, SD, DECALN).
 * None of them moves the cursor except IL and DL, which return it to the left margin; counts are
 * clamped to the screen, so a huge parameter costs no more than a full screen.
 */
final class Editing {

    private final ScreenState state;

    Editing(ScreenState state) {
        this.state = state;
    }

    /** ED: 0 cursor to end, 1 start to cursor, 2 whole screen; 3 (scrollback) has nothing to clear. */
    void eraseInDisplay(int mode) {
        Grid grid = state.grid();
        int row = state.row();
        state.clearPendingWrap();
        if (mode == 0) {
            grid.row(row).erase(state.col(), state.columns);
            grid.clearRows(row + 1, state.rows);
        } else if (mode == 1) {
            grid.clearRows(0, row);
            grid.row(row).erase(0, state.col() + 1);
        } else if (mode == 2) {
            grid.clear();
        }
    }

    /** EL: 0 cursor to end of line, 1 start of line to cursor, 2 whole line. */
    void eraseInLine(int mode) {
        Row line = state.grid().row(state.row());
        int col = state.col();
        state.clearPendingWrap();
        if (mode == 0) {
            line.erase(col, state.columns);
        } else if (mode == 1) {
            line.erase(0, col + 1);
        } else if (mode == 2) {
            line.erase(0, state.columns);
        }
    }

    /** ECH: blanks {@code count} cells from the cursor without shifting. */
    void eraseCharacters(int count) {
        int col = state.col();
        state.clearPendingWrap();
        state.grid().row(state.row()).erase(col, col + Math.min(count, state.columns - col));
    }

    /** ICH: inserts {@code count} blanks at the cursor; cells pushed past the edge are lost. */
    void insertCharacters(int count) {
        state.clearPendingWrap();
        state.grid().row(state.row()).insertBlanks(state.col(), count);
    }

    /** DCH: deletes {@code count} cells at the cursor; blanks enter at the right edge. */
    void deleteCharacters(int count) {
        state.clearPendingWrap();
        state.grid().row(state.row()).delete(state.col(), count);
    }

    /** IL: inserts blank lines at the cursor row inside the scroll region; ignored outside it. */
    void insertLines(int count) {
        int row = state.row();
        if (row < state.top() || row > state.bottom()) {
            return;
        }
        state.grid().scrollDown(row, state.bottom(), count);
        state.carriageReturn();
    }

    /** DL: deletes lines at the cursor row inside the scroll region; ignored outside it. */
    void deleteLines(int count) {
        int row = state.row();
        if (row < state.top() || row > state.bottom()) {
            return;
        }
        state.grid().scrollUp(row, state.bottom(), count);
        state.carriageReturn();
    }

    /** SU: scrolls the region up. */
    void scrollUp(int count) {
        state.grid().scrollUp(state.top(), state.bottom(), count);
    }

    /** SD: scrolls the region down. */
    void scrollDown(int count) {
        state.grid().scrollDown(state.top(), state.bottom(), count);
    }

    /** DECALN: fills the screen with 'E', resets the margins and homes the cursor. */
    void alignmentTest() {
        Grid grid = state.grid();
        for (int r = 0; r < state.rows; r++) {
            Row line = grid.row(r);
            line.erase(0, state.columns);
            Arrays.fill(line.cells, 'E');
        }
        state.setMargins(1, state.rows);
        state.moveTo(1, 1);
    }
}
