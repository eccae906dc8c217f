package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.Locale;

/** The line-ending style a text uses; {@code NONE} when it has no line break. Wire: lower-case. */
public enum LineEndings {
    NONE,
    LF,
    CRLF,
    CR,
    MIXED;

    /** The wire form, e.g. {@code "crlf"}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses the wire form; anything else is {@code INVALID_ARGUMENT}. */
    public static LineEndings fromWire(String wire) {
        for (LineEndings endings : values()) {
            if (endings.wire().equals(wire)) {
                return endings;
            }
        }
        throw new LomiException(ErrorCode.INVALID_ARGUMENT, "unknown line endings: " + wire);
    }
}
