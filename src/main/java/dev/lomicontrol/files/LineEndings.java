package dev.lomicontrol.files;

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
}
