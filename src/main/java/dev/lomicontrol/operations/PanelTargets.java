package dev.lomicontrol.operations;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import java.util.Optional;

/**
 * Resolving the {@code workspaceId}/{@code panelId}/{@code terminalSessionId} a call names into a
 * granted workspace and a panel of it — shared by the layout, terminal and editor tools.
 */
public final class PanelTargets {

    private final WorkspaceAccess workspaces;
    private final Layout layout;

    public PanelTargets(WorkspaceAccess workspaces, Layout layout) {
        this.workspaces = workspaces;
        this.layout = layout;
    }

    /** The granted workspace {@code id}, or TARGET_NOT_FOUND (for inputs bound into records). */
    public WorkspaceAccess.Listed workspace(Session session, WorkspaceId id) {
        return workspaces.resolve(session, id);
    }

    /**
     * The panel {@code panelId} in the granted workspace {@code id}, checked against
     * {@code terminalSessionId} when given (for inputs bound into records).
     */
    public PanelTarget panel(Session session, WorkspaceId id, String panelId, Optional<String> terminalSessionId) {
        WorkspaceAccess.Listed listed = workspace(session, id);
        Panel panel = layout.view(listed.workspace().id())
                .panel(panelId)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "no panel " + panelId + " in this workspace; list the panels (lomi_panel_list) and"
                                + " use a panelId from that answer"));
        if (terminalSessionId.isPresent() && !terminalSessionId.equals(panel.terminalSessionId())) {
            throw new LomiException(
                    ErrorCode.STALE_GENERATION,
                    "panel " + panelId + " no longer shows terminal " + terminalSessionId.get()
                            + "; list the panels again");
        }
        return new PanelTarget(listed, panel);
    }

    /** A resolved panel in a granted workspace. */
    public record PanelTarget(WorkspaceAccess.Listed listed, Panel panel) {
        public WorkspaceId workspace() {
            return listed.workspace().id();
        }
    }
}
