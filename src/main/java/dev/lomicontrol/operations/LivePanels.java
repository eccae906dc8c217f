package dev.lomicontrol.operations;

import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Panel;
import tools.jackson.databind.JsonNode;

/**
 * What the layout needs to know about the live thing behind a panel (a terminal's process, an
 * editor's buffer), and how to end it. Each feature with panels answers for its own kind; the
 * defaults fit a panel with nothing live behind it.
 */
public interface LivePanels {

    /** Panels with nothing live behind them: every answer is the default. */
    LivePanels NONE = new LivePanels() {};

    /** not_started, starting, running (a command runs), ready (prompt ready / buffer loaded), unobserved (alive, prompt unknown) or exited. */
    public default String runtimeState(Panel panel) {
        return "ready";
    }

    /** Whether a command is running in the panel's terminal (a close must not cut it off). */
    public default boolean busy(Panel panel) {
        return false;
    }

    /** Whether the panel's editor buffer has unsaved changes (a close needs the admin's decision). */
    public default boolean dirty(Panel panel) {
        return false;
    }

    /** Whether {@code session} holds the input lease of the panel's terminal. */
    public default boolean controlledBy(Session session, Panel panel) {
        return false;
    }

    /** Whether the panel's terminal is alive and was created by another session. */
    public default boolean ownedByOther(Session session, Panel panel) {
        return false;
    }

    /** The live browser generation a browser panel shows (empty for other panels, or when its browser closed). */
    public default java.util.Optional<String> browserGeneration(Panel panel) {
        return java.util.Optional.empty();
    }

    /** What a read-only panel shows, as listed by lomi_panel_list (a git panel's diff or commit view); empty for other panels. */
    public default java.util.Optional<JsonNode> view(Panel panel) {
        return java.util.Optional.empty();
    }

    /** The panel was focused (lomi_panel_focus): a browser opened hidden is shown from then on. */
    default void focused(Panel panel) {}

    /**
     * lomi_panel_control's form for this kind's panels ({@link PanelControl}): claims or releases
     * their input lease and answers the operation; kinds without input refuse it.
     */
    default Object control(Session session, PanelControl request) {
        throw new dev.lomicontrol.core.LomiException(
                dev.lomicontrol.core.ErrorCode.INVALID_ARGUMENT,
                request.kind().name().toLowerCase(java.util.Locale.ROOT) + " panels take no input lease");
    }

    /** Ends the panel's process or drops its buffer (after the panel left the layout; unsaved changes are discarded). */
    default void end(Panel panel) {}
}
