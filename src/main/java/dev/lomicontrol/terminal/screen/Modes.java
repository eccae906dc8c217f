package dev.lomicontrol.terminal.screen;

/** The terminal modes the emulator honours; all others are accepted and ignored. */
final class Modes {

    /** DECAWM (?7): printing past the last column wraps to the next line. */
    boolean autowrap = true;
    /** DECOM (?6): cursor addressing is relative to the scroll region. */
    boolean origin;
    /** IRM (4): printing shifts the rest of the line right. */
    boolean insert;
    /** DECTCEM (?25). */
    boolean cursorVisible = true;
    /** ?2004: the program wants pasted text wrapped in ESC[200~ … ESC[201~. */
    boolean bracketedPaste;

    /** DECSTR: the modes a soft reset restores (the buffer choice and bracketed paste stay). */
    void softReset() {
        autowrap = true;
        origin = false;
        insert = false;
        cursorVisible = true;
    }

    void reset() {
        softReset();
        bracketedPaste = false;
    }
}
