package dev.lomicontrol.terminal.screen;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.Objects;

/**
 * A model of what a real terminal shows for one PTY: feed it every byte the PTY prints and take a
 * {@link ScreenSnapshot} whenever an agent asks for the screen. Emulates the xterm subset that shells
 * and full-screen programs (vi, less, top) use with {@code TERM=xterm-256color}: cursor addressing,
 * erasing, scroll regions, autowrap, wide characters and the alternate buffer. Attributes and colours
 * are parsed and dropped; there is no scrollback.
 *
 * <p>Thread-safe: the PTY reader feeds while request threads take snapshots.
 */
public final class Screen {

    /** Largest accepted width and height. */
    public static final int MAX_SIZE = 1024;

    private final ScreenState state;
    private final Sequences sequences;
    private final Parser parser;

    /** A blank screen of {@code columns} × {@code rows} cells (each 1..{@value #MAX_SIZE}). */
    public Screen(int columns, int rows) {
        checkSize(columns, rows);
        state = new ScreenState(columns, rows);
        sequences = new Sequences(state);
        parser = new Parser(state, sequences);
    }

    /**
     * Applies PTY output; UTF-8 may be split anywhere across calls. Returns the bytes the program is
     * owed in answer to its queries (cursor position, status, device attributes), to be written back
     * to the PTY in order; usually empty.
     */
    public synchronized byte[] feed(byte[] data, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, data.length);
        parser.feed(data, offset, length);
        return sequences.takeReplies();
    }

    /**
     * Follows a PTY window-size change: the top-left content stays, the cursor is clamped into the new
     * size, the scroll region becomes the whole screen.
     */
    public synchronized void resize(int columns, int rows) {
        checkSize(columns, rows);
        state.resize(columns, rows);
    }

    /** The visible screen now: one line per row, trailing blanks trimmed, wide characters once. */
    public synchronized ScreenSnapshot snapshot() {
        return state.snapshot();
    }

    /** Whether the program enabled bracketed paste (?2004), so pasted input should be wrapped. */
    public synchronized boolean bracketedPaste() {
        return state.modes.bracketedPaste;
    }

    private static void checkSize(int columns, int rows) {
        if (columns < 1 || columns > MAX_SIZE || rows < 1 || rows > MAX_SIZE) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "screen size must be 1.." + MAX_SIZE + " columns and rows, got " + columns + "x" + rows);
        }
    }
}
