package dev.lomicontrol.broker;

import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Panel;

/** What the layout needs to know about the live process behind a terminal panel, and how to end it. */
interface LiveTerminals {

    /** not_started, starting, running (a command runs), ready (prompt ready), unobserved (alive, prompt unknown) or exited. */
    String runtimeState(Panel panel);

    /** Whether a command is running in the panel's terminal (a close must not cut it off). */
    boolean busy(Panel panel);

    /** Whether {@code session} holds the input lease of the panel's terminal. */
    boolean controlledBy(Session session, Panel panel);

    /** Whether the panel's terminal is alive and was created by another session. */
    boolean ownedByOther(Session session, Panel panel);

    /** Ends the panel's process, if it still runs (after the panel left the layout). */
    void end(Panel panel);
}
