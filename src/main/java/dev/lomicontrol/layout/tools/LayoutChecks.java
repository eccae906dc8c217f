package dev.lomicontrol.layout.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.projects.WorkspaceView;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The preconditions the layout tools share, written once: the {@code expectedRevision} check of an
 * admission, what keeps a workspace, a project or a panel from closing (a running command, unsaved
 * editor changes, another connection's live terminal or browser, the project's last workspace).
 */
final class LayoutChecks {

    private final Projects projects;
    private final Layout layout;
    private final LivePanels live;

    LayoutChecks(Projects projects, Layout layout, LivePanels live) {
        this.projects = projects;
        this.layout = layout;
        this.live = live;
    }

    /** The admission of a change based on {@code expected}: stale → REVISION_CONFLICT. */
    OperationRunner.Admission revision(long expected) {
        return () -> requireRevision(expected);
    }

    void requireRevision(long expected) {
        Revisions.require(expected, layout.revision());
    }

    /**
     * No terminal may be running a command, and the admin's own live terminal (console terminal new)
     * is theirs to end; a workspace close keeps the project's last workspace (close the project instead).
     */
    void requireClosable(List<WorkspaceView> views, Project project, boolean wholeProject) {
        List<String> admins = new ArrayList<>();
        for (WorkspaceView view : views) {
            view.panels().stream()
                    .filter(p -> p.kind() == PanelKind.TERMINAL
                            && p.ownerSession().isEmpty()
                            && !live.runtimeState(p).equals("exited"))
                    .forEach(p -> admins.add(p.id() + " (" + p.title() + ")"));
        }
        if (!admins.isEmpty()) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    "the admin's own running terminal " + String.join(", ", admins)
                            + " (console terminal new) is here; it is kept, and so is what holds it");
        }
        List<String> busy = new ArrayList<>();
        for (WorkspaceView view : views) {
            view.panels().stream()
                    .filter(p -> p.kind() == PanelKind.TERMINAL && live.busy(p))
                    .forEach(p -> busy.add(p.id() + " (" + p.title() + ")"));
        }
        if (!busy.isEmpty()) {
            throw new LomiException(
                    ErrorCode.TARGET_BUSY,
                    "a command is still running in " + String.join(", ", busy) + "; wait for it or interrupt it first");
        }
        List<String> dirty = new ArrayList<>();
        for (WorkspaceView view : views) {
            view.panels().stream().filter(live::dirty).forEach(p -> dirty.add(p.id() + " (" + p.title() + ")"));
        }
        if (!dirty.isEmpty()) {
            throw new LomiException(
                    ErrorCode.TARGET_BUSY,
                    "unsaved editor changes in " + String.join(", ", dirty)
                            + "; save them (lomi_editor_save) or close those panels first (the admin decides about discarding)");
        }
        if (!wholeProject && project.workspaces().size() <= 1) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "this is the project's last workspace; close the project instead");
        }
    }

    /** Another connection's live browser or terminal is kept, and so is a terminal running a command. */
    void requirePanelClosable(Session session, Panel panel) {
        if (panel.kind() == PanelKind.BROWSER && live.ownedByOther(session, panel)) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    "panel " + panel.id() + " is another connection's live browser; it is kept");
        }
        if (panel.kind() != PanelKind.TERMINAL) {
            return;
        }
        if (live.ownedByOther(session, panel)) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    "panel " + panel.id()
                            + (panel.ownerSession().isEmpty()
                                    ? " is the admin's own running terminal (console terminal new); it is kept"
                                    : " is another session's running terminal; it is kept"));
        }
        if (live.busy(panel)) {
            throw new LomiException(
                    ErrorCode.TARGET_BUSY,
                    "a command is still running in panel " + panel.id() + "; interrupt it first");
        }
    }

    Project currentProject(ProjectId id) {
        return projects.get(id).orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no project " + id));
    }

    List<WorkspaceView> views(Project project) {
        List<WorkspaceView> views = new ArrayList<>();
        project.workspaces().forEach(w -> views.add(layout.view(w.id())));
        return views;
    }

    /** The wire enum constant named like {@code name} (the engine's lower-case names). */
    static <E extends Enum<E>> E wire(Class<E> type, String name) {
        return Enum.valueOf(type, name.toUpperCase(Locale.ROOT));
    }
}
