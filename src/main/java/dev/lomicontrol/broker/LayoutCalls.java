package dev.lomicontrol.broker;

import dev.lomicontrol.broker.PanelTargets.PanelTarget;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.ledger.Target;
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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Workspace, project and panel tools (SPEC §9–§10). Every mutation names the {@code expectedRevision}
 * it was based on: checked before the receipt exists (stale → REVISION_CONFLICT, nothing left behind)
 * and again atomically with the change (stale by then → the operation fails with REVISION_CONFLICT).
 */
final class LayoutCalls {

    static final int MAX_PROJECTS_PER_SESSION = 16;
    private static final Pattern CURSOR = Pattern.compile("([0-9]{1,18}):([0-9]{1,9}):([^:]{1,64}):([A-Za-z0-9._-]{1,128})");
    private static final String[] OP = {"retryEpoch", "requestKey"};
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Projects projects;
    private final Layout layout;
    private final WorkspaceCalls workspaces;
    private final PanelTargets panels;
    private final OperationRunner runner;
    private final LivePanels live;
    private final String instanceId;

    LayoutCalls(Projects projects, Layout layout, WorkspaceCalls workspaces, PanelTargets panels, OperationRunner runner, LivePanels live,
            String instanceId) {
        this.panels = panels;
        this.projects = projects;
        this.layout = layout;
        this.workspaces = workspaces;
        this.runner = runner;
        this.live = live;
        this.instanceId = instanceId;
    }

    ObjectNode panelList(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId", "limit", "cursor");
        WorkspaceView view = panels.view(session, args);
        int limit = args.integer("limit", 1, WorkspaceCalls.MAX_LIMIT, OptionalInt.of(WorkspaceCalls.DEFAULT_LIMIT));
        int offset = args.optionalString("cursor").map(cursor -> offsetOf(cursor, view)).orElse(0);
        List<Panel> ordered = new ArrayList<>();
        for (Tab tab : view.tabs()) {
            tab.root().panelIds().forEach(id -> view.panel(id).ifPresent(ordered::add));
        }
        int end = Math.min(ordered.size(), offset + limit);
        ObjectNode data = JSON.objectNode();
        data.put("kind", "panel_list");
        data.put("workspaceId", view.workspace().id().value());
        data.put("domainRevision", Long.toString(view.revision()));
        WireJson.put(data, "activePanelId", view.activePanelId());
        ArrayNode tabs = data.putArray("tabs");
        for (Tab tab : view.tabs()) {
            ObjectNode item = tabs.addObject();
            item.put("tabId", tab.id());
            ArrayNode ids = item.putArray("panelIds");
            tab.root().panelIds().forEach(ids::add);
            item.set("layout", LayoutJson.json(tab.root()));
        }
        ArrayNode panels = data.putArray("panels");
        for (Panel panel : ordered.subList(Math.min(offset, end), end)) {
            ObjectNode item = panels.addObject();
            item.put("panelId", panel.id());
            item.put("tabId", view.tabOf(panel.id()).map(Tab::id).orElseThrow());
            item.put("kind", panel.kind().wire());
            item.put("title", panel.title());
            WireJson.put(item, "terminalSessionId", panel.terminalSessionId());
            item.put("ownership", ownership(session, panel));
            item.put("runtimeState", live.runtimeState(panel));
            panel.documentId().ifPresent(id -> item.put("documentId", id));
            panel.gitView().ifPresent(gitView -> item.set("gitView", GitCalls.view(gitView)));
            item.put("inputControlled", panel.kind() == PanelKind.TERMINAL && live.controlledBy(session, panel));
            item.put("focused", view.activePanelId().filter(panel.id()::equals).isPresent());
        }
        boolean hasMore = end < ordered.size();
        data.put("hasMore", hasMore);
        if (hasMore) {
            data.put("nextCursor", view.revision() + ":" + end + ":" + instanceId + ":" + view.workspace().id().value());
        } else {
            data.putNull("nextCursor");
        }
        return data;
    }

    ObjectNode workspaceCreate(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, with("workspaceId", "name", "expectedRevision"));
        WorkspaceCalls.Listed anchor = workspaces.resolve(session, new WorkspaceId(args.requiredString("workspaceId")));
        String name = args.requiredString("name");
        long expected = Revisions.expected(args);
        return runner.immediate(request(session, "lomi_workspace_create", arguments, args, anchor, "", expected),
                () -> Revisions.require(expected, layout.revision()),
                operation -> layout.change(OptionalLong.of(expected), edit -> {
                    WorkspaceView created = edit.createWorkspace(anchor.project().id(), name);
                    ObjectNode result = result("workspace_created", edit.newRevision());
                    result.put("workspaceId", created.workspace().id().value());
                    result.put("projectId", created.project().id().value());
                    result.put("panelId", created.panels().get(0).id());
                    return result;
                }));
    }

    /** rename {name} | select {action:"select"} | close {action:"close"}. */
    ObjectNode workspaceUpdate(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, with("workspaceId", "expectedRevision", "name", "action"));
        WorkspaceCalls.Listed target = workspaces.resolve(session, new WorkspaceId(args.requiredString("workspaceId")));
        if (args.has("name") == args.has("action")) {
            throw Arguments.invalid("pass exactly one variant: rename {name}, {action:\"select\"} or {action:\"close\"}");
        }
        String action = args.has("name") ? "rename" : args.choice("action", Optional.empty(), "select", "close");
        long expected = Revisions.expected(args);
        WorkspaceId id = target.workspace().id();
        return runner.immediate(request(session, "lomi_workspace_update", arguments, args, target, action, expected), () -> {
            Revisions.require(expected, layout.revision());
            if (action.equals("close")) {
                requireClosable(List.of(layout.view(id)), currentProject(target.project().id()), false);
            }
        }, operation -> {
            List<Panel> closed = new ArrayList<>();
            ObjectNode result = layout.change(OptionalLong.of(expected), edit -> {
                switch (action) {
                    case "rename":
                        edit.renameWorkspace(id, args.requiredString("name"));
                        break;
                    case "select":
                        edit.select(id);
                        break;
                    default:
                        WorkspaceView view = edit.view(id);
                        requireClosable(List.of(view), currentProject(target.project().id()), false);
                        closed.addAll(view.panels());
                        edit.deleteWorkspace(id);
                        break;
                }
                ObjectNode data = result("workspace_updated", edit.newRevision());
                data.put("action", action);
                data.put("workspaceId", id.value());
                return data;
            });
            closed.forEach(live::end);
            return result;
        });
    }

    /** Asks the admin to open a new folder as a project; runs once approved (YOLO approves). */
    ObjectNode projectOpen(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, with("workspaceId", "projectPath", "name", "expectedRevision"));
        WorkspaceCalls.Listed anchor = workspaces.resolve(session, new WorkspaceId(args.requiredString("workspaceId")));
        String rawPath = args.requiredString("projectPath");
        String name = args.requiredString("name");
        if (rawPath.length() > 4096 || rawPath.indexOf('\0') >= 0) {
            throw Arguments.invalid("projectPath is an absolute path of at most 4096 characters");
        }
        if (name.isEmpty() || name.length() > 256 || name.chars().anyMatch(Character::isISOControl)) {
            throw Arguments.invalid("name is 1-256 characters without control characters");
        }
        long expected = Revisions.expected(args);
        Path[] root = new Path[1];
        ObjectNode plan = JSON.objectNode();
        plan.put("action", "open project");
        plan.put("projectPath", rawPath);
        plan.put("name", name);
        plan.put("client", session.clientLabel());
        plan.put("session", session.id().value());
        return runner.afterApproval(request(session, "lomi_project_open", arguments, args, anchor, rawPath, expected), () -> {
            Revisions.require(expected, layout.revision());
            root[0] = Projects.canonicalDirectory(Path.of(rawPath));
            if (projects.list().stream().anyMatch(p -> p.root().equals(root[0]))) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, rawPath + " is already open as a project; ask the admin to grant it");
            }
            if (!session.grant().allProjects() && session.grant().projects().size() >= MAX_PROJECTS_PER_SESSION) {
                throw new LomiException(ErrorCode.RESOURCE_EXHAUSTED, "a connection may hold at most " + MAX_PROJECTS_PER_SESSION + " projects");
            }
        }, () -> "open " + shown(root[0], rawPath) + " as project '" + name + "' for " + session.clientLabel(), () -> {
            // the admin approves the folder that will be granted, not the text the agent sent (F11)
            plan.put("folder", root[0].toString());
            return plan;
        }, operation -> {
            Path folder = Projects.canonicalDirectory(root[0] == null ? Path.of(rawPath) : root[0]);
            ObjectNode result = layout.change(OptionalLong.empty(), edit -> {
                Project project = edit.addProject(folder, name);
                session.extendGrant(project.id());
                ObjectNode data = result("project_opened", edit.newRevision());
                data.put("projectId", project.id().value());
                data.put("workspaceId", project.workspaces().get(0).id().value());
                data.put("projectPath", project.root().toString());
                return data;
            });
            return result;
        });
    }

    /** The canonical folder, and what was asked for when that differs ({@code /home/u/p/..}). */
    private static String shown(Path folder, String requested) {
        return folder.toString().equals(requested) ? requested : folder + " (requested as " + requested + ")";
    }

    /** Closes a granted project and all its workspaces (never deletes the folder). */
    ObjectNode projectClose(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, with("projectId", "workspaceId", "expectedRevision"));
        ProjectId projectId = new ProjectId(args.requiredString("projectId"));
        WorkspaceCalls.Listed anchor = workspaces.resolve(session, new WorkspaceId(args.requiredString("workspaceId")));
        if (!anchor.project().id().equals(projectId)) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "workspace " + anchor.workspace().id() + " is not in project " + projectId);
        }
        long expected = Revisions.expected(args);
        return runner.immediate(request(session, "lomi_project_close", arguments, args, anchor, projectId.value(), expected), () -> {
            Revisions.require(expected, layout.revision());
            requireClosable(views(anchor.project()), anchor.project(), true);
        }, operation -> {
            List<Panel> closed = new ArrayList<>();
            ObjectNode result = layout.change(OptionalLong.of(expected), edit -> {
                List<WorkspaceView> views = new ArrayList<>();
                for (Workspace w : edit.project(projectId).workspaces()) {
                    views.add(edit.view(w.id()));
                }
                requireClosable(views, edit.project(projectId), true);
                views.forEach(v -> closed.addAll(v.panels()));
                edit.removeProject(projectId);
                ObjectNode data = result("project_closed", edit.newRevision());
                data.put("projectId", projectId.value());
                ArrayNode ids = data.putArray("closedWorkspaceIds");
                views.forEach(v -> ids.add(v.workspace().id().value()));
                return data;
            });
            closed.forEach(live::end);
            return result;
        });
    }

    ObjectNode panelFocus(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, with("workspaceId", "panelId", "terminalSessionId", "expectedRevision"));
        PanelTarget target = panels.panel(session, args);
        return runner.immediate(request(session, "lomi_panel_focus", arguments, args, target.listed(), target.panel().id(), target.expected()),
                () -> Revisions.require(target.expected(), layout.revision()),
                operation -> layout.change(OptionalLong.of(target.expected()), edit -> {
                    edit.view(target.workspace()).panel(target.panel().id())
                            .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no panel " + target.panel().id()));
                    edit.focus(target.workspace(), target.panel().id());
                    return panelResult("panel_focused", target, edit.newRevision());
                }));
    }

    /**
     * Closes a scratch panel, an editor panel or an idle terminal this session owns; running commands
     * and other sessions' live are kept. An editor with unsaved changes waits for the admin:
     * approve = discard the changes and close, reject = keep the panel.
     */
    ObjectNode panelClose(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, with("workspaceId", "panelId", "terminalSessionId", "expectedRevision"));
        PanelTarget target = panels.panel(session, args);
        Panel panel = target.panel();
        OperationRunner.Request request = request(session, "lomi_panel_close", arguments, args, target.listed(), panel.id(), target.expected());
        OperationRunner.Admission admission = () -> {
            Revisions.require(target.expected(), layout.revision());
            requirePanelClosable(session, panel);
        };
        java.util.function.Function<OptionalLong, OperationRunner.Work> closeChecking = revision -> operation -> {
            ObjectNode result = layout.change(revision, edit -> {
                edit.view(target.workspace()).panel(panel.id()).orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no panel " + panel.id()));
                requirePanelClosable(session, panel);
                edit.removePanel(target.workspace(), panel.id());
                return panelResult("panel_closed", target, edit.newRevision());
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
            return runner.afterApproval(request, admission, "close " + panel.cwd() + " and DISCARD its unsaved changes (" + session.clientLabel() + ")",
                    plan, closeChecking.apply(OptionalLong.empty()));
        }
        return runner.immediate(request, admission, operation -> {
            if (live.dirty(panel)) {
                throw new LomiException(ErrorCode.TARGET_BUSY, "the editor got unsaved changes meanwhile; close it again");
            }
            return closeChecking.apply(OptionalLong.of(target.expected())).perform(operation);
        });
    }

    ObjectNode panelMove(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, with("workspaceId", "movement", "expectedRevision"));
        WorkspaceCalls.Listed listed = workspaces.resolve(session, new WorkspaceId(args.requiredString("workspaceId")));
        Movement movement = movement(session, args.object("movement", "type", "tabId", "beforeTabId", "targetTabId", "side", "panelId",
                "targetPanelId", "targetWorkspaceId"));
        long expected = Revisions.expected(args);
        return runner.immediate(request(session, "lomi_panel_move", arguments, args, listed, movement.type(), expected), () -> {
                    Revisions.require(expected, layout.revision());
                    layout.checkMovement(listed.workspace().id(), movement);
                },
                operation -> layout.change(OptionalLong.of(expected), edit -> {
                    edit.move(listed.workspace().id(), movement);
                    ObjectNode data = result("panel_moved", edit.newRevision());
                    data.put("workspaceId", listed.workspace().id().value());
                    data.put("movement", movement.type());
                    return data;
                }));
    }

    static OperationRunner.Request request(Session session, String tool, JsonNode arguments, Arguments args, WorkspaceCalls.Listed listed,
            String resource, long expectedRevision) {
        return OperationRunner.Request.of(session, tool, arguments, args, listed.project().id(),
                new Target(listed.workspace().id().value(), resource, "", expectedRevision < 0 ? "" : Long.toString(expectedRevision)));
    }

    static String[] with(String... fields) {
        String[] all = new String[fields.length + OP.length];
        System.arraycopy(fields, 0, all, 0, fields.length);
        System.arraycopy(OP, 0, all, fields.length, OP.length);
        return all;
    }

    static ObjectNode result(String kind, long revision) {
        ObjectNode data = JSON.objectNode();
        data.put("kind", kind);
        data.put("domainRevision", Long.toString(revision));
        return data;
    }

    private ObjectNode panelResult(String kind, PanelTarget target, long revision) {
        ObjectNode data = result(kind, revision);
        data.put("workspaceId", target.workspace().value());
        data.put("panelId", target.panel().id());
        return data;
    }

    private String ownership(Session session, Panel panel) {
        if (panel.ownerSession().isEmpty()) {
            return "none";
        }
        return panel.ownerSession().get().equals(session.id().value()) ? "this_session" : "other_session";
    }

    /** No terminal may be running a command; a workspace close keeps the project's last workspace (close the project instead). */
    private void requireClosable(List<WorkspaceView> views, Project project, boolean wholeProject) {
        List<String> busy = new ArrayList<>();
        for (WorkspaceView view : views) {
            view.panels().stream().filter(p -> p.kind() == PanelKind.TERMINAL && live.busy(p))
                    .forEach(p -> busy.add(p.id() + " (" + p.title() + ")"));
        }
        if (!busy.isEmpty()) {
            throw new LomiException(ErrorCode.TARGET_BUSY, "a command is still running in " + String.join(", ", busy)
                    + "; wait for it or interrupt it first");
        }
        List<String> dirty = new ArrayList<>();
        for (WorkspaceView view : views) {
            view.panels().stream().filter(live::dirty).forEach(p -> dirty.add(p.id() + " (" + p.title() + ")"));
        }
        if (!dirty.isEmpty()) {
            throw new LomiException(ErrorCode.TARGET_BUSY, "unsaved editor changes in " + String.join(", ", dirty)
                    + "; save them (lomi_editor_save) or close those panels first (the admin decides about discarding)");
        }
        if (!wholeProject && project.workspaces().size() <= 1) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "this is the project's last workspace; close the project instead");
        }
    }

    private void requirePanelClosable(Session session, Panel panel) {
        if (panel.kind() != PanelKind.TERMINAL) {
            return;
        }
        if (live.ownedByOther(session, panel)) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, "panel " + panel.id() + " is another session's running terminal; it is kept");
        }
        if (live.busy(panel)) {
            throw new LomiException(ErrorCode.TARGET_BUSY, "a command is still running in panel " + panel.id() + "; interrupt it first");
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

    private Movement movement(Session session, Arguments m) {
        String type = m.choice("type", Optional.empty(), "reorder_tab", "dock_tab", "move_pane", "transfer_tab");
        switch (type) {
            case "reorder_tab":
                only(m, type, "tabId", "beforeTabId");
                return new Movement.ReorderTab(m.requiredString("tabId"), m.optionalString("beforeTabId"));
            case "dock_tab":
                only(m, type, "tabId", "targetTabId", "side");
                return new Movement.DockTab(m.requiredString("tabId"), m.requiredString("targetTabId"), side(m));
            case "move_pane":
                only(m, type, "panelId", "targetPanelId", "side");
                return new Movement.MovePane(m.requiredString("panelId"), m.requiredString("targetPanelId"), side(m));
            default:
                only(m, type, "tabId", "targetWorkspaceId", "beforeTabId");
                WorkspaceId target = workspaces.resolve(session, new WorkspaceId(m.requiredString("targetWorkspaceId"))).workspace().id();
                return new Movement.TransferTab(m.requiredString("tabId"), target, m.optionalString("beforeTabId"));
        }
    }

    private static void only(Arguments m, String type, String... fields) {
        List<String> allowed = List.of(fields);
        for (String name : List.of("tabId", "beforeTabId", "targetTabId", "side", "panelId", "targetPanelId", "targetWorkspaceId")) {
            if (m.has(name) && !allowed.contains(name)) {
                throw Arguments.invalid("movement " + type + " takes " + String.join(", ", fields) + ", not " + name);
            }
        }
    }

    private static Movement.Side side(Arguments m) {
        return Movement.Side.valueOf(m.choice("side", Optional.empty(), "left", "right", "top", "bottom").toUpperCase(java.util.Locale.ROOT));
    }

    private int offsetOf(String cursor, WorkspaceView view) {
        Matcher matcher = CURSOR.matcher(cursor);
        if (!matcher.matches()) {
            throw Arguments.invalid("cursor is not a panel_list cursor");
        }
        if (Long.parseLong(matcher.group(1)) != view.revision() || !matcher.group(3).equals(instanceId)
                || !matcher.group(4).equals(view.workspace().id().value())) {
            throw new LomiException(ErrorCode.CURSOR_EXPIRED, "the panels changed since this cursor (domainRevision is now " + view.revision()
                    + "); list again without a cursor");
        }
        return Integer.parseInt(matcher.group(2));
    }
}
