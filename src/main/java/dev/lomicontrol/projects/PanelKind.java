package dev.lomicontrol.projects;

import java.util.Locale;

/** What a panel shows. Wire form is the lower-case name. */
public enum PanelKind {
    /** A blank scratch buffer, as a new workspace starts with. */
    SCRATCH,
    /** A real PTY terminal. */
    TERMINAL,
    /** A shared editor buffer of a project file. */
    EDITOR,
    /** A read-only git view: one path's diff or one commit. */
    GIT,
    /** A headless Chromium page (its live generation is not stored: browsers do not survive a restart). */
    BROWSER,

    /** A shared chat conversation (its view names the conversation). */
    CHAT,

    /** An Android device of the user's adb server (its view names the device; opening one never starts it). */
    ANDROID;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    static PanelKind fromWire(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
