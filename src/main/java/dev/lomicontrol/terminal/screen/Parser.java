package dev.lomicontrol.terminal.screen;

/**
 * Splits PTY output into printable text and control sequences (an ECMA-48 state machine in the shape
 * xterm accepts) and hands both to the screen. Runs of plain ASCII skip the state machine entirely.
 *
 * <p>Robustness: CAN and SUB abort a sequence, ESC restarts one, C0 controls inside a control
 * sequence still act, unknown sequences are consumed whole, and nothing grows with the input: a
 * sequence keeps at most {@value Params#MAX_COUNT} parameters and two intermediates, an OSC string
 * at most {@value #MAX_STRING} characters, and DCS, SOS, PM and APC strings are skipped unbuffered.
 * C1 controls in UTF-8 form are ignored, except that U+009C ends a string.
 */
final class Parser {

    static final int MAX_STRING = 4096;

    private static final int GROUND = 0;
    private static final int ESCAPE = 1;
    private static final int ESCAPE_INTERMEDIATE = 2;
    private static final int CSI_ENTRY = 3;
    private static final int CSI_PARAM = 4;
    private static final int CSI_INTERMEDIATE = 5;
    private static final int CSI_IGNORE = 6;
    private static final int OSC = 7;
    private static final int OSC_ESCAPE = 8;
    private static final int STRING = 9;
    private static final int STRING_ESCAPE = 10;

    private static final int ESC = 0x1B;
    private static final int ST = 0x9C;

    private final Utf8Decoder decoder = new Utf8Decoder();
    private final ScreenState state;
    private final Sequences sequences;
    private final Params params = new Params();
    private final StringBuilder string = new StringBuilder();
    private int mode = GROUND;
    private int prefix;
    private int intermediates;
    private int intermediateCount;

    Parser(ScreenState state, Sequences sequences) {
        this.state = state;
        this.sequences = sequences;
    }

    /** Consumes PTY output; a UTF-8 character or a control sequence may continue in the next call. */
    void feed(byte[] data, int offset, int length) {
        int i = offset;
        int end = offset + length;
        while (i < end) {
            int b = data[i] & 0xFF;
            if (b < 0x80 && decoder.idle()) {
                i = mode == GROUND ? ground(data, i, end) : acceptAscii(b, i);
                continue;
            }
            int c = decoder.decode(b);
            if (c == Utf8Decoder.REPLAY) {
                accept(Utf8Decoder.REPLACEMENT);
                continue;
            }
            if (c != Utf8Decoder.MORE) {
                accept(c);
            }
            i++;
        }
    }

    /** An ASCII byte in the ground state: text runs, CR and LF take the short way. */
    private int ground(byte[] data, int i, int end) {
        int b = data[i];
        if (b >= 0x20 && b < 0x7F) {
            return state.printAscii(data, i, end);
        }
        if (b == '\n') {
            state.forgetLastGraphic();
            state.lineFeed();
        } else if (b == '\r') {
            state.forgetLastGraphic();
            state.carriageReturn();
        } else {
            accept(b);
        }
        return i + 1;
    }

    private int acceptAscii(int b, int i) {
        accept(b);
        return i + 1;
    }

    private void accept(int c) {
        if (mode == OSC_ESCAPE || mode == STRING_ESCAPE) {
            if (c == '\\') {
                finishString();
                return;
            }
            beginEscape();
        }
        if (c < 0x20) {
            acceptControl(c);
        } else if (c == 0x7F) {
            return;
        } else if (c >= 0x80 && c < 0xA0) {
            if (c == ST && (mode == OSC || mode == STRING)) {
                finishString();
            }
        } else {
            acceptCharacter(c);
        }
    }

    private void acceptControl(int c) {
        if (c != ESC) {
            state.forgetLastGraphic();
        }
        if (c == 0x18 || c == 0x1A) {
            mode = GROUND;
        } else if (c == ESC) {
            if (mode == OSC) {
                mode = OSC_ESCAPE;
            } else if (mode == STRING) {
                mode = STRING_ESCAPE;
            } else {
                beginEscape();
            }
        } else if (mode == OSC) {
            if (c == 0x07) {
                finishString();
            }
        } else if (mode != STRING) {
            state.control(c);
        }
    }

    private void acceptCharacter(int c) {
        switch (mode) {
            case GROUND -> state.print(c);
            case ESCAPE, ESCAPE_INTERMEDIATE -> escape(c);
            case CSI_ENTRY, CSI_PARAM, CSI_INTERMEDIATE, CSI_IGNORE -> controlSequence(c);
            case OSC -> {
                if (string.length() < MAX_STRING) {
                    string.appendCodePoint(c);
                }
            }
            default -> {}
        }
    }

    private void beginEscape() {
        mode = ESCAPE;
        intermediates = 0;
        intermediateCount = 0;
    }

    private void escape(int c) {
        if (c >= 0x20 && c <= 0x2F) {
            collect(c);
            mode = ESCAPE_INTERMEDIATE;
        } else if (c > 0x7E) {
            mode = GROUND;
            state.print(c);
        } else if (mode == ESCAPE && startsString(c)) {
            return;
        } else {
            mode = GROUND;
            if (intermediateCount <= 2) {
                sequences.escape(intermediates, c);
            }
            state.forgetLastGraphic();
        }
    }

    /** ESC [, ESC ], ESC P, ESC X, ESC ^ and ESC _ open a control sequence or a string. */
    private boolean startsString(int c) {
        switch (c) {
            case '[' -> {
                mode = CSI_ENTRY;
                params.reset();
                prefix = 0;
            }
            case ']' -> {
                mode = OSC;
                string.setLength(0);
            }
            case 'P', 'X', '^', '_' -> mode = STRING;
            default -> {
                return false;
            }
        }
        return true;
    }

    private void controlSequence(int c) {
        if (c > 0x7E) {
            mode = CSI_IGNORE;
        } else if (c >= 0x40) {
            if (mode != CSI_IGNORE && intermediateCount <= 2) {
                sequences.controlSequence(prefix, intermediates, c, params);
            }
            state.forgetLastGraphic();
            mode = GROUND;
        } else if (mode == CSI_IGNORE) {
            return;
        } else if (c >= 0x20 && c <= 0x2F) {
            collect(c);
            mode = CSI_INTERMEDIATE;
        } else if (mode == CSI_INTERMEDIATE) {
            mode = CSI_IGNORE;
        } else {
            parameter(c);
        }
    }

    private void parameter(int c) {
        if (c >= '0' && c <= '9') {
            params.digit(c - '0');
        } else if (c == ';' || c == ':') {
            params.separator();
        } else if (mode == CSI_ENTRY) {
            prefix = c;
        } else {
            mode = CSI_IGNORE;
            return;
        }
        mode = CSI_PARAM;
    }

    private void collect(int c) {
        if (intermediateCount < 3) {
            intermediates = (intermediates << 8) | c;
            intermediateCount++;
        }
    }

    private void finishString() {
        state.forgetLastGraphic();
        if (mode == OSC || mode == OSC_ESCAPE) {
            sequences.operatingSystemCommand(string);
            string.setLength(0);
        }
        mode = GROUND;
    }
}
