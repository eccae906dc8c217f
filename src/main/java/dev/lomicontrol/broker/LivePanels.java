package dev.lomicontrol.broker;

import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Panel;

/** What the layout needs to know about the live thing behind a panel (a terminal's process, an editor's buffer), and how to end it. */
interface LivePanels {

    /** not_started, starting, running (a command runs), ready (prompt ready / buffer loaded), unobserved (alive, prompt unknown) or exited. */
    String runtimeState(Panel panel);

    /** Whether a command is running in the panel's terminal (a close must not cut it off). */
    boolean busy(Panel panel);

    /** Whether the panel's editor buffer has unsaved changes (a close needs the admin's decision). */
    boolean dirty(Panel panel);

    /** Whether {@code session} holds the input lease of the panel's terminal. */
    boolean controlledBy(Session session, Panel panel);

    /** Whether the panel's terminal is alive and was created by another session. */
    boolean ownedByOther(Session session, Panel panel);

    /** The live browser generation a browser panel shows (empty for other panels, or when its browser closed). */
    default java.util.Optional<String> browserGeneration(Panel panel) {
        return java.util.Optional.empty();
    }

    /** Ends the panel's process or drops its buffer (after the panel left the layout; unsaved changes are discarded). */
    void end(Panel panel);
}
