package dev.lomicontrol.layout.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.layout.api.LayoutSpecs;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.PanelTargets.PanelTarget;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.LayoutJson;
import dev.lomicontrol.projects.Movement;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.projects.Tab;
import dev.lomicontrol.projects.Workspace;
import dev.lomicontrol.projects.WorkspaceView;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Hex32;
import dev.lomicontrol.tools.Token;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Workspace, project and panel tools (SPEC §9–§10). Every mutation names the {@code expectedRevision}
 * it was based on: checked before the receipt exists (stale → REVISION_CONFLICT, nothing left behind)
 * and again atomically with the change (stale by then → the operation fails with REVISION_CONFLICT).
 */
@Component
public final class LayoutCalls implements ToolFeature {

    static final int MAX_PROJECTS_PER_SESSION = 16;
    private static final Pattern CURSOR =
            Pattern.compile("([0-9]{1,18}):([0-9]{1,9}):([^:]{1,64}):([A-Za-z0-9._-]{1,128})");
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

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

    public LayoutSpecs.Panels panelList(Session session, LayoutSpecs.PanelList input) {
        WorkspaceView view = layout.view(
                workspaces.resolve(session, input.workspaceId()).workspace().id());
        int offset = input.cursor().map(cursor -> offsetOf(cursor, view)).orElse(0);
        List<Panel> ordered = new ArrayList<>();
        for (Tab tab : view.tabs()) {
            tab.root().panelIds().forEach(id -> view.panel(id).ifPresent(ordered::add));
        }
        int end = Math.min(ordered.size(), offset + input.limit());
        List<LayoutSpecs.TabItem> tabs = view.tabs().stream()
                .map(tab -> new LayoutSpecs.TabItem(
                        tab.id(), List.copyOf(tab.root().panelIds()), LayoutJson.json(tab.root())))
                .toList();
        List<LayoutSpecs.PanelItem> items = ordered.subList(Math.min(offset, end), end).stream()
                .map(panel -> item(session, view, panel))
                .toList();
        boolean hasMore = end < ordered.size();
        return new LayoutSpecs.Panels(
                view.workspace().id(),
                Decimal.of(view.revision()),
                view.activePanelId(),
                tabs,
                items,
                hasMore,
                hasMore
                        ? Optional.of(view.revision() + ":" + end + ":" + workspaces.instanceId() + ":"
                                + view.workspace().id().value())
                        : Optional.empty());
    }

    private LayoutSpecs.PanelItem item(Session session, WorkspaceView view, Panel panel) {
        return new LayoutSpecs.PanelItem(
                panel.id(),
                view.tabOf(panel.id()).map(Tab::id).orElseThrow(),
                wire(LayoutSpecs.PanelKind.class, panel.kind().name()),
                panel.title(),
                panel.terminalSessionId(),
                live.browserGeneration(panel),
                ownership(session, panel),
                wire(LayoutSpecs.RuntimeState.class, live.runtimeState(panel)),
                panel.documentId(),
                live.view(panel),
                (panel.kind() == PanelKind.TERMINAL || panel.kind() == PanelKind.BROWSER)
                        && live.controlledBy(session, panel),
                view.activePanelId().filter(panel.id()::equals).isPresent());
    }

    private static <E extends Enum<E>> E wire(Class<E> type, String name) {
        return Enum.valueOf(type, name.toUpperCase(java.util.Locale.ROOT));
    }

    public Object workspaceCreate(Session session, LayoutSpecs.WorkspaceCreate in) {
        WorkspaceAccess.Listed anchor = workspaces.resolve(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        return runner.immediate(
                OperationRunner.Request.of(session, LayoutSpecs.WORKSPACE_CREATE, in, anchor, "", expected),
                () -> Revisions.require(expected, layout.revision()),
                operation -> layout.change(OptionalLong.of(expected), edit -> {
                    WorkspaceView created = edit.createWorkspace(
                            anchor.project().id(), in.name().value());
                    return Encoder.encode(new LayoutSpecs.WorkspaceCreated(
                            Decimal.of(edit.newRevision()),
                            created.workspace().id(),
                            created.project().id(),
                            created.panels().get(0).id()));
                }));
    }

    /** rename {name} | select {action:"select"} | close {action:"close"} (close also needs workspace.close). */
    public Object workspaceUpdate(Session session, LayoutSpecs.WorkspaceUpdate in) {
        LayoutSpecs.Updated action = in instanceof LayoutSpecs.Rename
                ? LayoutSpecs.Updated.RENAME
                : ((LayoutSpecs.Act) in).action() == LayoutSpecs.Action.SELECT
                        ? LayoutSpecs.Updated.SELECT
                        : LayoutSpecs.Updated.CLOSE;
        if (action == LayoutSpecs.Updated.CLOSE && !session.grant().allows("workspace.close")) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    dev.lomicontrol.core.ErrorMessages.missingScope("closing a workspace", "workspace.close"));
        }
        WorkspaceAccess.Listed target = workspaces.resolve(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        WorkspaceId id = target.workspace().id();
        String resource = action.name().toLowerCase(java.util.Locale.ROOT);
        return runner.immediate(
                OperationRunner.Request.of(session, LayoutSpecs.WORKSPACE_UPDATE, in, target, resource, expected),
                () -> {
                    Revisions.require(expected, layout.revision());
                    if (action == LayoutSpecs.Updated.CLOSE) {
                        requireClosable(
                                List.of(layout.view(id)),
                                currentProject(target.project().id()),
                                false);
                    }
                },
                operation -> {
                    List<Panel> closed = new ArrayList<>();
                    JsonNode result = layout.change(OptionalLong.of(expected), edit -> {
                        switch (action) {
                            case RENAME:
                                edit.renameWorkspace(
                                        id, ((LayoutSpecs.Rename) in).name().value());
                                break;
                            case SELECT:
                                edit.select(id);
                                break;
                            default:
                                WorkspaceView view = edit.view(id);
                                requireClosable(
                                        List.of(view),
                                        currentProject(target.project().id()),
                                        false);
                                closed.addAll(view.panels());
                                edit.deleteWorkspace(id);
                                break;
                        }
                        return Encoder.encode(
                                new LayoutSpecs.WorkspaceUpdated(Decimal.of(edit.newRevision()), action, id));
                    });
                    closed.forEach(live::end);
                    return result;
                });
    }

    /** Asks the admin to open a new folder as a project; runs once approved (YOLO approves). */
    public Object projectOpen(Session session, LayoutSpecs.ProjectOpen in) {
        WorkspaceAccess.Listed anchor = workspaces.resolve(session, in.workspaceId());
        String rawPath = in.projectPath();
        String name = in.name().value();
        long expected = in.expectedRevision().asLong();
        Path[] root = new Path[1];
        ObjectNode plan = JSON.objectNode();
        plan.put("action", "open project");
        plan.put("projectPath", rawPath);
        plan.put("name", name);
        plan.put("client", session.clientLabel());
        plan.put("session", session.id().value());
        return runner.afterApproval(
                OperationRunner.Request.of(session, LayoutSpecs.PROJECT_OPEN, in, anchor, rawPath, expected),
                () -> {
                    Revisions.require(expected, layout.revision());
                    root[0] = Projects.canonicalDirectory(Path.of(rawPath));
                    if (projects.list().stream().anyMatch(p -> p.root().equals(root[0]))) {
                        throw new LomiException(
                                ErrorCode.INVALID_ARGUMENT,
                                rawPath + " is already open as a project; ask the admin to grant it");
                    }
                    if (!session.grant().allProjects()
                            && session.grant().projects().size() >= MAX_PROJECTS_PER_SESSION) {
                        throw new LomiException(
                                ErrorCode.RESOURCE_EXHAUSTED,
                                "a connection may hold at most " + MAX_PROJECTS_PER_SESSION + " projects");
                    }
                },
                () -> "open " + shown(root[0], rawPath) + " as project '" + name + "' for " + session.clientLabel(),
                () -> {
                    // the admin approves the folder that will be granted, not the text the agent sent (F11)
                    plan.put("folder", root[0].toString());
                    return plan;
                },
                operation -> {
                    Path folder = Projects.canonicalDirectory(root[0] == null ? Path.of(rawPath) : root[0]);
                    return layout.change(OptionalLong.empty(), edit -> {
                        Project project = edit.addProject(folder, name);
                        session.extendGrant(project.id());
                        return Encoder.encode(new LayoutSpecs.ProjectOpened(
                                Decimal.of(edit.newRevision()),
                                project.id(),
                                project.workspaces().get(0).id(),
                                project.root().toString()));
                    });
                });
    }

    /** The canonical folder, and what was asked for when that differs ({@code /home/u/p/..}). */
    private static String shown(Path folder, String requested) {
        return folder.toString().equals(requested) ? requested : folder + " (requested as " + requested + ")";
    }

    /** Closes a granted project and all its workspaces (never deletes the folder). */
    public Object projectClose(Session session, LayoutSpecs.ProjectClose in) {
        ProjectId projectId = in.projectId();
        WorkspaceAccess.Listed anchor = workspaces.resolve(session, in.workspaceId());
        if (!anchor.project().id().equals(projectId)) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "workspace " + anchor.workspace().id() + " is not in project " + projectId);
        }
        long expected = in.expectedRevision().asLong();
        return runner.immediate(
                OperationRunner.Request.of(session, LayoutSpecs.PROJECT_CLOSE, in, anchor, projectId.value(), expected),
                () -> {
                    Revisions.require(expected, layout.revision());
                    requireClosable(views(anchor.project()), anchor.project(), true);
                },
                operation -> {
                    List<Panel> closed = new ArrayList<>();
                    JsonNode result = layout.change(OptionalLong.of(expected), edit -> {
                        List<WorkspaceView> views = new ArrayList<>();
                        for (Workspace w : edit.project(projectId).workspaces()) {
                            views.add(edit.view(w.id()));
                        }
                        requireClosable(views, edit.project(projectId), true);
                        views.forEach(v -> closed.addAll(v.panels()));
                        edit.removeProject(projectId);
                        return Encoder.encode(new LayoutSpecs.ProjectClosed(
                                Decimal.of(edit.newRevision()),
                                projectId,
                                views.stream().map(v -> v.workspace().id()).toList()));
                    });
                    closed.forEach(live::end);
                    return result;
                });
    }

    public Object panelFocus(Session session, LayoutSpecs.PanelMutation in) {
        PanelTarget target = target(session, in);
        return runner.immediate(
                OperationRunner.Request.of(
                        session,
                        LayoutSpecs.PANEL_FOCUS,
                        in,
                        target.listed(),
                        target.panel().id(),
                        target.expected()),
                () -> Revisions.require(target.expected(), layout.revision()),
                operation -> {
                    JsonNode focused = layout.change(OptionalLong.of(target.expected()), edit -> {
                        edit.view(target.workspace())
                                .panel(target.panel().id())
                                .orElseThrow(() -> new LomiException(
                                        ErrorCode.TARGET_NOT_FOUND,
                                        "no panel " + target.panel().id()));
                        edit.focus(target.workspace(), target.panel().id());
                        return Encoder.encode(new LayoutSpecs.PanelFocused(
                                Decimal.of(edit.newRevision()),
                                target.workspace(),
                                target.panel().id()));
                    });
                    live.focused(target.panel());
                    return focused;
                });
    }

    /**
     * Closes a scratch panel, an editor panel or an idle terminal this session owns; running commands
     * and other sessions' live are kept. An editor with unsaved changes waits for the admin:
     * approve = discard the changes and close, reject = keep the panel.
     */
    public Object panelClose(Session session, LayoutSpecs.PanelMutation in) {
        PanelTarget target = target(session, in);
        Panel panel = target.panel();
        OperationRunner.Request request = OperationRunner.Request.of(
                session, LayoutSpecs.PANEL_CLOSE, in, target.listed(), panel.id(), target.expected());
        OperationRunner.Admission admission = () -> {
            Revisions.require(target.expected(), layout.revision());
            requirePanelClosable(session, panel);
        };
        java.util.function.Function<OptionalLong, OperationRunner.Work> closeChecking = revision -> operation -> {
            JsonNode result = layout.change(revision, edit -> {
                edit.view(target.workspace())
                        .panel(panel.id())
                        .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no panel " + panel.id()));
                requirePanelClosable(session, panel);
                edit.removePanel(target.workspace(), panel.id());
                return Encoder.encode(
                        new LayoutSpecs.PanelClosed(Decimal.of(edit.newRevision()), target.workspace(), panel.id()));
            });
            live.end(panel);
            return result;
        };
        if (live.dirty(panel)) {
            ObjectNode plan = JSON.objectNode();
            plan.put("action", "close an editor with unsaved changes");
            plan.put("panelId", panel.id());
            plan.put("file", panel.cwd());
            plan.put("approve", "discard the unsaved changes and close");
            plan.put("reject", "keep the panel and its changes");
            plan.put("client", session.clientLabel());
            // decided later: the layout may have moved meanwhile, the admin approved this exact panel
            return runner.afterApproval(
                    request,
                    admission,
                    "close " + panel.cwd() + " and DISCARD its unsaved changes (" + session.clientLabel() + ")",
                    plan,
                    closeChecking.apply(OptionalLong.empty()));
        }
        return runner.immediate(request, admission, operation -> {
            if (live.dirty(panel)) {
                throw new LomiException(
                        ErrorCode.TARGET_BUSY, "the editor got unsaved changes meanwhile; close it again");
            }
            return closeChecking.apply(OptionalLong.of(target.expected())).perform(operation);
        });
    }

    /**
     * The panel a focus or close names, checked against the generations the call names: a
     * {@code terminalSessionId} or {@code browserGeneration} other than the live one the panel shows
     * is STALE_GENERATION.
     */
    private PanelTarget target(Session session, LayoutSpecs.PanelMutation in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        String panelId = in.panelId().value();
        Panel panel = layout.view(listed.workspace().id())
                .panel(panelId)
                .orElseThrow(() ->
                        new LomiException(ErrorCode.TARGET_NOT_FOUND, "no panel " + panelId + " in this workspace"));
        Optional<String> terminal = in.terminalSessionId().map(Hex32::value);
        if (terminal.isPresent() && !terminal.equals(panel.terminalSessionId())) {
            throw new LomiException(
                    ErrorCode.STALE_GENERATION,
                    "panel " + panelId + " no longer shows terminal " + terminal.get() + "; list the panels again");
        }
        if (in.browserGeneration().isPresent()
                && !in.browserGeneration().map(Token::value).equals(live.browserGeneration(panel))) {
            throw new LomiException(
                    ErrorCode.STALE_GENERATION,
                    "panel " + panelId + " (" + panel.kind().wire() + ") does not show browser "
                            + "generation " + in.browserGeneration().get().value() + " (now: "
                            + live.browserGeneration(panel).orElse("none")
                            + "); list the panels again");
        }
        return new PanelTarget(listed, panel, in.expectedRevision().asLong());
    }

    public Object panelMove(Session session, LayoutSpecs.PanelMove in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        Movement movement = movement(session, in.movement());
        long expected = in.expectedRevision().asLong();
        return runner.immediate(
                OperationRunner.Request.of(session, LayoutSpecs.PANEL_MOVE, in, listed, movement.type(), expected),
                () -> {
                    Revisions.require(expected, layout.revision());
                    layout.checkMovement(listed.workspace().id(), movement);
                },
                operation -> layout.change(OptionalLong.of(expected), edit -> {
                    edit.move(listed.workspace().id(), movement);
                    return Encoder.encode(new LayoutSpecs.PanelMoved(
                            Decimal.of(edit.newRevision()),
                            listed.workspace().id(),
                            wire(LayoutSpecs.MovementType.class, movement.type())));
                }));
    }

    private static LayoutSpecs.Ownership ownership(Session session, Panel panel) {
        if (panel.ownerSession().isEmpty()) {
            return LayoutSpecs.Ownership.NONE;
        }
        return panel.ownerSession().get().equals(session.id().value())
                ? LayoutSpecs.Ownership.THIS_SESSION
                : LayoutSpecs.Ownership.OTHER_SESSION;
    }

    /** No terminal may be running a command; a workspace close keeps the project's last workspace (close the project instead). */
    private void requireClosable(List<WorkspaceView> views, Project project, boolean wholeProject) {
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

    private void requirePanelClosable(Session session, Panel panel) {
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
                    "panel " + panel.id() + " is another session's running terminal; it is kept");
        }
        if (live.busy(panel)) {
            throw new LomiException(
                    ErrorCode.TARGET_BUSY,
                    "a command is still running in panel " + panel.id() + "; interrupt it first");
        }
    }

    private Project currentProject(ProjectId id) {
        return projects.get(id).orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no project " + id));
    }

    private List<WorkspaceView> views(Project project) {
        List<WorkspaceView> views = new ArrayList<>();
        project.workspaces().forEach(w -> views.add(layout.view(w.id())));
        return views;
    }

    private Movement movement(Session session, LayoutSpecs.Movement m) {
        if (m instanceof LayoutSpecs.ReorderTab reorder) {
            return new Movement.ReorderTab(
                    reorder.tabId().value(), reorder.beforeTabId().map(Token::value));
        }
        if (m instanceof LayoutSpecs.DockTab dock) {
            return new Movement.DockTab(dock.tabId().value(), dock.targetTabId().value(), side(dock.side()));
        }
        if (m instanceof LayoutSpecs.MovePane pane) {
            return new Movement.MovePane(
                    pane.panelId().value(), pane.targetPanelId().value(), side(pane.side()));
        }
        LayoutSpecs.TransferTab transfer = (LayoutSpecs.TransferTab) m;
        WorkspaceId target = workspaces
                .resolve(session, transfer.targetWorkspaceId())
                .workspace()
                .id();
        return new Movement.TransferTab(
                transfer.tabId().value(), target, transfer.beforeTabId().map(Token::value));
    }

    private static Movement.Side side(LayoutSpecs.Side side) {
        return Movement.Side.valueOf(side.name());
    }

    private int offsetOf(String cursor, WorkspaceView view) {
        Matcher matcher = CURSOR.matcher(cursor);
        if (!matcher.matches()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "cursor is not a panel_list cursor");
        }
        if (Long.parseLong(matcher.group(1)) != view.revision()
                || !matcher.group(3).equals(workspaces.instanceId())
                || !matcher.group(4).equals(view.workspace().id().value())) {
            throw new LomiException(
                    ErrorCode.CURSOR_EXPIRED,
                    "the panels changed since this cursor (domainRevision is now " + view.revision()
                            + "); list again without a cursor");
        }
        return Integer.parseInt(matcher.group(2));
    }

    /** Registers the handlers of the tools this class serves. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        this.live = wiring.panels();
        handlers.on(LayoutSpecs.PANEL_LIST, this::panelList);
        handlers.on(LayoutSpecs.WORKSPACE_CREATE, this::workspaceCreate);
        handlers.on(LayoutSpecs.WORKSPACE_UPDATE, this::workspaceUpdate);
        handlers.on(LayoutSpecs.PROJECT_OPEN, this::projectOpen);
        handlers.on(LayoutSpecs.PROJECT_CLOSE, this::projectClose);
        handlers.on(LayoutSpecs.PANEL_FOCUS, this::panelFocus);
        handlers.on(LayoutSpecs.PANEL_CLOSE, this::panelClose);
        handlers.on(LayoutSpecs.PANEL_MOVE, this::panelMove);
    }
}
