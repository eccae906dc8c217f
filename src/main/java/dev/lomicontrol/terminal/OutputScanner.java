package dev.lomicontrol.terminal;

/**
 * Turns PTY output into normalized text and shell-integration events, across arbitrary chunk
 * boundaries. Text keeps printable ASCII, bytes ≥ 0x80, LF, CR and TAB; escape sequences (CSI up
 * to 64 bytes of parameters, OSC up to 512 bytes, DCS/SOS/PM/APC strings) and every other C0
 * control are dropped. It reports OSC 133 marks (A, B, C, D with an optional exit code) and
 * bracketed-paste mode changes (CSI ? 2004 h/l). Not thread-safe: one reader feeds it.
 */
final class OutputScanner {

    /** The exit code of a D mark that carried none (or an unreadable one). */
    static final int NO_CODE = Integer.MIN_VALUE;

    static final int MAX_CSI = 64;
    static final int MAX_OSC = 512;

    /** Receives the scanner's results in stream order. */
    interface Sink {
        /** Normalized text: a run of {@code data} that is kept as it is. */
        void text(byte[] data, int offset, int length);

        /** An OSC 133 mark: {@code kind} is A, B, C or D; {@code code} is D's exit code or {@link #NO_CODE}. */
        void mark(char kind, int code);

        /** The application switched bracketed paste on or off. */
        void bracketedPaste(boolean on);
    }

    private enum State {
        GROUND,
        ESCAPE,
        ESCAPE_INTERMEDIATE,
        CSI,
        CSI_IGNORE,
        OSC,
        OSC_ESCAPE,
        STRING,
        STRING_ESCAPE
    }

    private static final int ESC = 0x1B;
    private static final int BEL = 0x07;
    private static final int CAN = 0x18;
    private static final int SUB = 0x1A;

    private State state = State.GROUND;
    private final byte[] csi = new byte[MAX_CSI];
    private int csiLength;
    private final byte[] osc = new byte[MAX_OSC];
    private int oscLength;
    private boolean oscOverflow;

    void scan(byte[] data, int offset, int length, Sink sink) {
        int end = offset + length;
        int i = offset;
        while (i < end) {
            if (state == State.GROUND) {
                int run = i;
                while (i < end && isText(data[i] & 0xFF)) {
                    i++;
                }
                if (i > run) {
                    sink.text(data, run, i - run);
                }
                if (i < end) {
                    if ((data[i] & 0xFF) == ESC) {
                        state = State.ESCAPE;
                    }
                    i++;
                }
            } else if (step(data, i, sink)) {
                i++;
            }
        }
    }

    /** Handles one byte outside GROUND; false when the byte must be looked at again in the new state. */
    private boolean step(byte[] data, int i, Sink sink) {
        int b = data[i] & 0xFF;
        switch (state) {
            case ESCAPE:
                return escape(b, data, i, sink);
            case ESCAPE_INTERMEDIATE:
                return escapeIntermediate(b, data, i, sink);
            case CSI:
            case CSI_IGNORE:
                return csi(b, data, i, sink);
            case OSC:
                osc(b, sink);
                return true;
            case OSC_ESCAPE:
                if (b == '\\') {
                    dispatchOsc(sink);
                    state = State.GROUND;
                    return true;
                }
                state = State.ESCAPE;
                return false;
            case STRING:
                if (b == ESC) {
                    state = State.STRING_ESCAPE;
                } else if (b == CAN || b == SUB) {
                    state = State.GROUND;
                }
                return true;
            case STRING_ESCAPE:
                if (b == '\\') {
                    state = State.GROUND;
                    return true;
                }
                state = State.ESCAPE;
                return false;
            default:
                throw new IllegalStateException("unexpected state " + state);
        }
    }

    private boolean escape(int b, byte[] data, int i, Sink sink) {
        if (b == '[') {
            state = State.CSI;
            csiLength = 0;
        } else if (b == ']') {
            state = State.OSC;
            oscLength = 0;
            oscOverflow = false;
        } else if (b == 'P' || b == 'X' || b == '^' || b == '_') {
            state = State.STRING;
        } else if (b >= 0x20 && b <= 0x2F) {
            state = State.ESCAPE_INTERMEDIATE;
        } else if (b >= 0x30 && b <= 0x7E) {
            state = State.GROUND;
        } else if (b >= 0x80) {
            state = State.GROUND;
            return false;
        } else {
            control(b, data, i, sink);
        }
        return true;
    }

    private boolean escapeIntermediate(int b, byte[] data, int i, Sink sink) {
        if (b >= 0x30 && b <= 0x7E) {
            state = State.GROUND;
        } else if (b >= 0x80) {
            state = State.GROUND;
            return false;
        } else if (b < 0x20) {
            control(b, data, i, sink);
        }
        return true;
    }

    private boolean csi(int b, byte[] data, int i, Sink sink) {
        if (b >= 0x40 && b <= 0x7E) {
            if (state == State.CSI) {
                dispatchCsi(b, sink);
            }
            state = State.GROUND;
        } else if (b >= 0x20 && b <= 0x3F) {
            if (csiLength == MAX_CSI) {
                state = State.CSI_IGNORE;
            } else {
                csi[csiLength++] = (byte) b;
            }
        } else if (b >= 0x80) {
            state = State.GROUND;
            return false;
        } else if (b < 0x20) {
            control(b, data, i, sink);
        }
        return true;
    }

    private void osc(int b, Sink sink) {
        if (b == BEL) {
            dispatchOsc(sink);
            state = State.GROUND;
        } else if (b == ESC) {
            state = State.OSC_ESCAPE;
        } else if (b == CAN || b == SUB) {
            state = State.GROUND;
        } else if (b >= 0x20) {
            if (oscLength == MAX_OSC) {
                oscOverflow = true;
            } else {
                osc[oscLength++] = (byte) b;
            }
        }
    }

    /**
     * A C0 control met inside an escape sequence: it acts as in ground (LF, CR, TAB are kept as
     * text, the rest dropped), except ESC, CAN and SUB, which abort the sequence.
     */
    private void control(int b, byte[] data, int i, Sink sink) {
        if (b == ESC) {
            state = State.ESCAPE;
        } else if (b == CAN || b == SUB) {
            state = State.GROUND;
        } else if (b == '\n' || b == '\r' || b == '\t') {
            sink.text(data, i, 1);
        }
    }

    private void dispatchCsi(int finalByte, Sink sink) {
        if ((finalByte != 'h' && finalByte != 'l') || csiLength < 2 || csi[0] != '?') {
            return;
        }
        int value = 0;
        boolean digits = false;
        for (int k = 1; k <= csiLength; k++) {
            int c = k < csiLength ? csi[k] : ';';
            if (c >= '0' && c <= '9' && value < 100_000) {
                value = value * 10 + (c - '0');
                digits = true;
            } else if (c == ';') {
                if (digits && value == 2004) {
                    sink.bracketedPaste(finalByte == 'h');
                }
                value = 0;
                digits = false;
            } else {
                return;
            }
        }
    }

    private void dispatchOsc(Sink sink) {
        if (oscOverflow || oscLength < 5 || osc[0] != '1' || osc[1] != '3' || osc[2] != '3' || osc[3] != ';') {
            return;
        }
        char kind = (char) osc[4];
        if ((kind != 'A' && kind != 'B' && kind != 'C' && kind != 'D') || (oscLength > 5 && osc[5] != ';')) {
            return;
        }
        sink.mark(kind, kind == 'D' ? exitCode() : NO_CODE);
    }

    /** D's first parameter as a number 0..9999, or {@link #NO_CODE}. */
    private int exitCode() {
        int value = 0;
        int k = 6;
        for (; k < oscLength && osc[k] != ';'; k++) {
            int c = osc[k];
            if (c < '0' || c > '9' || k >= 10) {
                return NO_CODE;
            }
            value = value * 10 + (c - '0');
        }
        return k == 6 ? NO_CODE : value;
    }

    private static boolean isText(int b) {
        return (b >= 0x20 && b != 0x7F) || b == '\n' || b == '\r' || b == '\t';
    }
}
