package dev.lomicontrol.layout.tools;

import dev.lomicontrol.layout.api.LayoutSpecs;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Projects;
import org.springframework.stereotype.Component;

/**
 * Workspace, project and panel tools (SPEC §9–§10). Every mutation names the {@code expectedRevision}
 * it was based on: checked before the receipt exists (stale → REVISION_CONFLICT, nothing left behind)
 * and again atomically with the change (stale by then → the operation fails with REVISION_CONFLICT).
 *
 * <p>The feature: once every feature is built it builds its parts over every feature's live panels —
 * {@link PanelList} (the read), {@link WorkspaceChanges}, {@link ProjectChanges}, {@link PanelChanges},
 * sharing the preconditions of {@link LayoutChecks} — and registers their handlers.
 */
@Component
public final class LayoutCalls implements ToolFeature {

    static final int MAX_PROJECTS_PER_SESSION = 16;

    private final Projects projects;
    private final Layout layout;
    private final WorkspaceAccess workspaces;
    private final OperationRunner runner;
    /** Every feature's live panels: known once every feature is built, when this one registers. */
    private LivePanels live = LivePanels.NONE;

    public LayoutCalls(Projects projects, Layout layout, WorkspaceAccess workspaces, OperationRunner runner) {
        this.projects = projects;
        this.layout = layout;
        this.workspaces = workspaces;
        this.runner = runner;
    }

    /** Registers the handlers of the tools this feature serves. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        this.live = wiring.panels();
        LayoutChecks checks = new LayoutChecks(projects, layout, live);
        PanelList panels = new PanelList(layout, workspaces, live);
        WorkspaceChanges workspaceChanges = new WorkspaceChanges(layout, workspaces, runner, live, checks);
        ProjectChanges projectChanges = new ProjectChanges(projects, layout, workspaces, runner, live, checks);
        PanelChanges panelChanges = new PanelChanges(layout, workspaces, runner, live, checks);
        handlers.on(LayoutSpecs.PANEL_LIST, panels::list);
        handlers.on(LayoutSpecs.WORKSPACE_CREATE, workspaceChanges::create);
        handlers.on(LayoutSpecs.WORKSPACE_UPDATE, workspaceChanges::update);
        handlers.on(LayoutSpecs.PROJECT_OPEN, projectChanges::open);
        handlers.on(LayoutSpecs.PROJECT_CLOSE, projectChanges::close);
        handlers.on(LayoutSpecs.PANEL_FOCUS, panelChanges::focus);
        handlers.on(LayoutSpecs.PANEL_CLOSE, panelChanges::close);
        handlers.on(LayoutSpecs.PANEL_MOVE, panelChanges::move);
    }
}
