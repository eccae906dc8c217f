package dev.lomicontrol.terminal;

import java.util.Locale;

/**
 * What the (untrusted) shell integration says about the command line, as the engine believes it.
 * Only {@link #READY} lets a command run.
 */
public enum PromptState {
    /** No fresh prompt boundary seen since the last command, redraw or input. */
    UNKNOWN,
    /** A fresh prompt (OSC 133 B after a D) with a live lease and nothing typed since. */
    READY,
    /** Input was typed and no command boundary has been seen since. */
    EDITING,
    /** A command started (OSC 133 C) and has not reported its exit (D). */
    RUNNING;

    /** The wire form: the lower-case name. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
