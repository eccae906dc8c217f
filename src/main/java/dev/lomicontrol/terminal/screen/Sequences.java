package dev.lomicontrol.terminal.screen;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Maps parsed escape sequences, control sequences and OSC strings to screen operations, and collects
 * the replies that queries (DSR, DA) owe the program. Anything not listed here is consumed and
 * ignored: SGR attributes, charset designations, keypad and mouse modes, window operations.
 */
final class Sequences {

    private static final byte[] NO_REPLY = new byte[0];
    /** Primary DA: "VT100 with Advanced Video Option", a modest claim so programs expect no extras. */
    private static final String PRIMARY_ATTRIBUTES = "\033[?1;2c";
    /** Secondary DA: terminal type 0 (VT100), version 10, ROM 0. */
    private static final String SECONDARY_ATTRIBUTES = "\033[>0;10;0c";
    /** Longest window title kept, in UTF-16 units. */
    static final int MAX_TITLE = 1024;

    private final ScreenState state;
    private final Editing editing;
    private final ByteArrayOutputStream replies = new ByteArrayOutputStream();

    Sequences(ScreenState state) {
        this.state = state;
        this.editing = new Editing(state);
    }

    /** The replies owed since the last call (usually none). */
    byte[] takeReplies() {
        if (replies.size() == 0) {
            return NO_REPLY;
        }
        byte[] taken = replies.toByteArray();
        replies.reset();
        return taken;
    }

    /** ESC with up to two intermediates (packed one byte each) and a final character. */
    void escape(int intermediates, int fin) {
        if (intermediates == '#' && fin == '8') {
            editing.alignmentTest();
        }
        if (intermediates != 0) {
            return; // charset designations (ESC ( B …), ESC % G and the like
        }
        switch (fin) {
            case '7' -> state.saveCursor();
            case '8' -> state.restoreCursor();
            case 'D' -> state.lineFeed();
            case 'E' -> state.nextLine();
            case 'M' -> state.reverseIndex();
            case 'H' -> state.setTabStop();
            case 'c' -> state.reset();
            default -> {}
        }
    }

    /** CSI with an optional private prefix ('?', '>', '<', '='), intermediates and a final character. */
    void controlSequence(int prefix, int intermediates, int fin, Params p) {
        if (intermediates != 0) {
            if (intermediates == '!' && fin == 'p' && prefix == 0) {
                state.softReset();
            }
        } else if (prefix == '?') {
            privateSequence(fin, p);
        } else if (prefix == '>') {
            if (fin == 'c' && p.raw(0) == 0) {
                reply(SECONDARY_ATTRIBUTES);
            }
        } else if (prefix == 0 && !cursorSequence(fin, p)) {
            editingSequence(fin, p);
        }
    }

    private boolean cursorSequence(int fin, Params p) {
        int n = p.get(0, 1);
        switch (fin) {
            case 'A' -> state.cursorUp(n);
            case 'B', 'e' -> state.cursorDown(n);
            case 'C', 'a' -> state.cursorForward(n);
            case 'D' -> state.cursorBack(n);
            case 'E' -> {
                state.cursorDown(n);
                state.carriageReturn();
            }
            case 'F' -> {
                state.cursorUp(n);
                state.carriageReturn();
            }
            case 'G', '`' -> state.columnAbsolute(n);
            case 'H', 'f' -> state.moveTo(n, p.get(1, 1));
            case 'd' -> state.rowAbsolute(n);
            case 'I' -> state.tab(n);
            case 'Z' -> state.backTab(n);
            case 's' -> saveCursorUnlessParameters(p);
            case 'u' -> state.restoreCursor();
            default -> {
                return false;
            }
        }
        return true;
    }

    private void saveCursorUnlessParameters(Params p) {
        if (p.count() == 0) {
            state.saveCursor();
        }
    }

    private void editingSequence(int fin, Params p) {
        int n = p.get(0, 1);
        switch (fin) {
            case 'J' -> editing.eraseInDisplay(p.raw(0));
            case 'K' -> editing.eraseInLine(p.raw(0));
            case '@' -> editing.insertCharacters(n);
            case 'P' -> editing.deleteCharacters(n);
            case 'X' -> editing.eraseCharacters(n);
            case 'L' -> editing.insertLines(n);
            case 'M' -> editing.deleteLines(n);
            case 'S' -> editing.scrollUp(n);
            case 'T' -> scrollDownUnlessMouseTracking(p);
            case 'b' -> state.repeat(n);
            case 'g' -> state.clearTabStops(p.raw(0));
            case 'r' -> state.setMargins(p.raw(0), p.raw(1));
            case 'h', 'l' -> ansiModes(p, fin == 'h');
            case 'n' -> deviceStatus(p.raw(0));
            case 'c' -> primaryAttributes(p);
            default -> {} // SGR ('m') and the rest: consumed, no screen effect
        }
    }

    /** CSI Ps T scrolls down; with five parameters it is xterm's mouse-highlight request. */
    private void scrollDownUnlessMouseTracking(Params p) {
        if (p.count() <= 1) {
            editing.scrollDown(p.get(0, 1));
        }
    }

    private void primaryAttributes(Params p) {
        if (p.raw(0) == 0) {
            reply(PRIMARY_ATTRIBUTES);
        }
    }

    private void ansiModes(Params p, boolean on) {
        for (int i = 0; i < p.count(); i++) {
            if (p.raw(i) == 4) {
                state.modes.insert = on;
            }
        }
    }

    private void privateSequence(int fin, Params p) {
        if (fin == 'h' || fin == 'l') {
            for (int i = 0; i < p.count(); i++) {
                privateMode(p.raw(i), fin == 'h');
            }
        } else if (fin == 'n' && p.raw(0) == 6) {
            reply("\033[?" + reportedRow() + ';' + (state.col() + 1) + 'R');
        }
    }

    private void privateMode(int mode, boolean on) {
        Modes modes = state.modes;
        switch (mode) {
            case 6 -> {
                modes.origin = on;
                state.moveTo(1, 1);
            }
            case 7 -> {
                modes.autowrap = on;
                if (!on) {
                    state.clearPendingWrap();
                }
            }
            case 25 -> modes.cursorVisible = on;
            case 47, 1047 -> alternate(on);
            case 1048 -> saveOrRestoreCursor(on);
            case 1049 -> alternateWithCursor(on);
            case 2004 -> modes.bracketedPaste = on;
            default -> {}
        }
    }

    private void alternate(boolean on) {
        if (on) {
            state.enterAlternate();
        } else {
            state.leaveAlternate();
        }
    }

    private void saveOrRestoreCursor(boolean save) {
        if (save) {
            state.saveCursor();
        } else {
            state.restoreCursor();
        }
    }

    /** ?1049: save the cursor and enter a cleared alternate buffer; leaving restores both. */
    private void alternateWithCursor(boolean on) {
        if (on && !state.alternateActive()) {
            state.saveCursor();
            state.enterAlternate();
        } else if (!on && state.alternateActive()) {
            state.leaveAlternate();
            state.restoreCursor();
        }
    }

    private void deviceStatus(int request) {
        if (request == 5) {
            reply("\033[0n");
        } else if (request == 6) {
            reply("\033[" + reportedRow() + ';' + (state.col() + 1) + 'R');
        }
    }

    /** The one-based cursor row as CPR reports it: relative to the top margin in origin mode. */
    private int reportedRow() {
        return state.row() + 1 - (state.modes.origin ? state.top() : 0);
    }

    /** OSC: 0 and 2 set the window title; everything else (icon names, colours, OSC 133 marks) is ignored. */
    void operatingSystemCommand(CharSequence text) {
        int semicolon = indexOf(text, ';');
        if (semicolon < 0) {
            return;
        }
        String command = text.subSequence(0, semicolon).toString();
        if (command.equals("0") || command.equals("2")) {
            int end = Math.min(text.length(), semicolon + 1 + MAX_TITLE);
            state.title = text.subSequence(semicolon + 1, end).toString();
        }
    }

    private static int indexOf(CharSequence text, char wanted) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == wanted) {
                return i;
            }
        }
        return -1;
    }

    private void reply(String text) {
        replies.writeBytes(text.getBytes(StandardCharsets.US_ASCII));
    }
}
