package dev.lomicontrol.mcp;

import static dev.lomicontrol.mcp.Schemas.anyObject;
import static dev.lomicontrol.mcp.Schemas.anyValue;
import static dev.lomicontrol.mcp.Schemas.arrayOf;
import static dev.lomicontrol.mcp.Schemas.bool;
import static dev.lomicontrol.mcp.Schemas.constant;
import static dev.lomicontrol.mcp.Schemas.decimal;
import static dev.lomicontrol.mcp.Schemas.exactlyOne;
import static dev.lomicontrol.mcp.Schemas.fieldsOf;
import static dev.lomicontrol.mcp.Schemas.form;
import static dev.lomicontrol.mcp.Schemas.hex32;
import static dev.lomicontrol.mcp.Schemas.integer;
import static dev.lomicontrol.mcp.Schemas.nullable;
import static dev.lomicontrol.mcp.Schemas.object;
import static dev.lomicontrol.mcp.Schemas.oneLine;
import static dev.lomicontrol.mcp.Schemas.oneOfStrings;
import static dev.lomicontrol.mcp.Schemas.string;
import static dev.lomicontrol.mcp.Schemas.token;
import static dev.lomicontrol.mcp.Schemas.withDefault;

import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * Workspace, project and panel tools (SPEC §9, §10 Layout; reference fields of research/lomi.md
 * §1c, §1d). Every change is a durable operation based on an {@code expectedRevision}; the typed
 * result each one settles with is named in its description.
 */
final class LayoutTools {

    static final String WORKSPACE_CREATE = "lomi_workspace_create";
    static final String WORKSPACE_UPDATE = "lomi_workspace_update";
    static final String PROJECT_OPEN = "lomi_project_open";
    static final String PROJECT_CLOSE = "lomi_project_close";
    static final String PANEL_LIST = "lomi_panel_list";
    static final String PANEL_FOCUS = "lomi_panel_focus";
    static final String PANEL_CLOSE = "lomi_panel_close";
    static final String PANEL_MOVE = "lomi_panel_move";
    static final String PANEL_CONTROL = "lomi_panel_control";

    static final String[] MOVEMENTS = {"reorder_tab", "dock_tab", "move_pane", "transfer_tab"};
    static final String[] SIDES = {"left", "right", "top", "bottom"};

    private LayoutTools() {}

    static List<ToolDefinition> all() {
        return List.of(workspaceCreate(), workspaceUpdate(), projectOpen(), projectClose(), panelList(), panelFocus(), panelClose(), panelMove(),
                panelControl());
    }

    private static ToolDefinition workspaceCreate() {
        ObjectNode input = object().property("workspaceId", token("anchor: an existing workspace of the project the new one joins"))
                .property("name", oneLine(256, "the new workspace's name")).require("workspaceId", "name").expectedRevision().durable().closed()
                .build();
        return operation(WORKSPACE_CREATE, "Create a workspace", "workspace.write",
                "Creates a workspace in the anchor's project with one blank scratch panel; no shell starts, and this client is granted the new "
                        + "workspace. Returns an operation; its result is {kind:\"workspace_created\", workspaceId, projectId, panelId (the "
                        + "scratch panel), domainRevision}.",
                input);
    }

    private static ToolDefinition workspaceUpdate() {
        ObjectNode input = object().property("workspaceId", token("the workspace to change")).require("workspaceId").expectedRevision().durable()
                .property("name", oneLine(256, "rename: the new name (without action)"))
                .property("action", oneOfStrings("select (make it the active workspace) or close (without name)", "select", "close")).closed()
                .build();
        ObjectNode exactlyOne = exactlyOne(
                form("rename {name}", fieldsOf(input, "action")).require("name").build(),
                form("{action: select|close}", fieldsOf(input, "name")).require("action").build());
        return operation(WORKSPACE_UPDATE, "Rename, select or close a workspace", "workspace.write",
                "Exactly one of: {name} renames, {action:\"select\"} selects, {action:\"close\"} closes the workspace. Close refuses (the "
                        + "operation fails with TARGET_BUSY, naming the panels) while an agent-owned terminal runs a command or a buffer is "
                        + "dirty, and never deletes the folder. Returns an operation; its result is {kind:\"workspace_updated\", action "
                        + "(rename|select|close), workspaceId, domainRevision}.",
                input).withConstraint(exactlyOne);
    }

    private static ToolDefinition projectOpen() {
        ObjectNode input = object().property("workspaceId", token("anchor: a workspace of this connection"))
                .property("projectPath", string(1, 4096, "^/[^\\u0000]*$", "the project's folder: an absolute path"))
                .property("name", oneLine(256, "the name of the project's first workspace")).require("workspaceId", "projectPath", "name")
                .expectedRevision().durable().closed().build();
        return operation(PROJECT_OPEN, "Open a project", "project.open",
                "Asks to open a folder as a new project with one named workspace. The operation waits in state awaiting_user until the admin "
                        + "decides (console: decision approve|reject <operationId>; YOLO approves); poll lomi_operation_get. Rejected: failed "
                        + "with errorCode SCOPE_DENIED. Its result is {kind:\"project_opened\", projectId, workspaceId, projectPath, "
                        + "domainRevision}.",
                input);
    }

    private static ToolDefinition projectClose() {
        ObjectNode input = object().property("projectId", token("the project to close"))
                .property("workspaceId", token("anchor: a workspace of that project")).require("projectId", "workspaceId").expectedRevision()
                .durable().closed().build();
        return operation(PROJECT_CLOSE, "Close a project", "project.close",
                "Closes the project and all of its workspaces (needs a grant for each); the folder is never deleted. Returns an operation; its "
                        + "result is {kind:\"project_closed\", projectId, closedWorkspaceIds, domainRevision}.",
                input);
    }

    private static ToolDefinition panelList() {
        ObjectNode input = object().property("workspaceId", token("the workspace whose panels to list"))
                .property("limit", withDefault(integer(1, 500, "page size (default 100)"), 100))
                .property("cursor", string(1, 1024, null, "nextCursor of the previous page")).require("workspaceId").closed().build();
        ObjectNode tab = object().property("tabId", token("tab id")).property("panelIds", arrayOf(token("a panel"), "the panels of this tab"))
                .property("layout", anyValue("the tab's split tree of panes")).require("tabId", "panelIds", "layout").build();
        ObjectNode panel = object().property("panelId", token("panel id")).property("tabId", token("the tab that holds it"))
                .property("kind", oneOfStrings("what the panel shows", "scratch", "terminal", "editor", "git")).property("title", string("its title"))
                .property("terminalSessionId", nullable(hex32("the terminal process it shows now; null when none")))
                .property("ownership", oneOfStrings("who owns its terminal: this_session, other_session or none", "this_session",
                        "other_session", "none"))
                .property("runtimeState", oneOfStrings("the terminal's life", "not_started", "starting", "running", "ready", "exited",
                        "unobserved"))
                .property("inputControlled", bool("whether this session holds its input lease"))
                .property("focused", bool("whether it is the focused panel"))
                .property("documentId", string("editor panels: the shared document it shows"))
                .property("gitView", anyObject("git panels: the view it shows, {type:\"diff\", relativePath, staged} or {type:\"commit\", commit}"))
                .require("panelId", "tabId", "kind", "title", "terminalSessionId", "ownership", "runtimeState", "inputControlled", "focused")
                .build();
        ObjectNode data = object().property("kind", constant("panel_list")).property("workspaceId", token("the workspace"))
                .property("domainRevision", decimal("the layout revision; send it as expectedRevision"))
                .property("activePanelId", nullable(token("the active panel; null when none")))
                .property("tabs", arrayOf(tab, "the tabs in order")).property("panels", arrayOf(panel, "the panels of this page"))
                .property("hasMore", bool("whether another page follows"))
                .property("nextCursor", nullable(string("cursor of the next page (bound to this revision); null on the last page")))
                .require("kind", "workspaceId", "domainRevision", "activePanelId", "tabs", "panels", "hasMore", "nextCursor").build();
        return ToolDefinition.broker(PANEL_LIST, "List panels",
                "The tabs (with their split layout) and panels of one workspace: kind, title, terminal session, ownership, runtime state, "
                        + "whether this session holds the input lease, focus, and the domainRevision. Paged; the cursor is bound to the revision.",
                Effect.RO, "workspace.read", input, data);
    }

    private static ToolDefinition panelFocus() {
        return operation(PANEL_FOCUS, "Focus a panel", "panel.focus",
                "Selects an existing panel (and its tab). Returns an operation; its result is {kind:\"panel_focused\", workspaceId, panelId, "
                        + "domainRevision}.",
                panelTarget("the panel to focus"));
    }

    private static ToolDefinition panelClose() {
        return operation(PANEL_CLOSE, "Close a panel", "panel.close",
                "Closes a panel. A terminal running a command is kept (TARGET_BUSY) and another session's terminal too (SCOPE_DENIED). "
                        + "Returns an operation; its result is {kind:\"panel_closed\", workspaceId, panelId, domainRevision}.",
                panelTarget("the panel to close"));
    }

    private static ObjectNode panelTarget(String panel) {
        return object().property("workspaceId", token("its workspace")).property("panelId", token(panel))
                .property("terminalSessionId", hex32("optional: the terminal process you expect the panel to show (from lomi_panel_list)"))
                .require("workspaceId", "panelId").expectedRevision().durable().closed().build();
    }

    private static ToolDefinition panelMove() {
        ObjectNode movement = object().property("type", oneOfStrings("which movement", MOVEMENTS))
                .property("tabId", token("reorder_tab, dock_tab, transfer_tab: the tab to move"))
                .property("beforeTabId", nullable(token("reorder_tab, transfer_tab: the tab to insert before; null or omitted = at the end")))
                .property("targetTabId", token("dock_tab: the tab to dock into"))
                .property("panelId", token("move_pane: the pane to move")).property("targetPanelId", token("move_pane: the pane to split"))
                .property("side", oneOfStrings("dock_tab, move_pane: where, relative to the target", SIDES))
                .property("targetWorkspaceId", token("transfer_tab: the workspace that receives the tab")).require("type").closed()
                .description("the type plus exactly the fields of that movement").build();
        ObjectNode input = object().property("workspaceId", token("the workspace whose layout changes")).property("movement", movement)
                .require("workspaceId", "movement").expectedRevision().durable().closed().build();
        ObjectNode variants = exactlyOne(
                movement("reorder_tab {tabId, beforeTabId?}", "reorder_tab", "tabId", "beforeTabId").require("tabId").build(),
                movement("dock_tab {tabId, targetTabId, side}", "dock_tab", "tabId", "targetTabId", "side")
                        .require("tabId", "targetTabId", "side").build(),
                movement("move_pane {panelId, targetPanelId, side}", "move_pane", "panelId", "targetPanelId", "side")
                        .require("panelId", "targetPanelId", "side").build(),
                movement("transfer_tab {tabId, targetWorkspaceId, beforeTabId?}", "transfer_tab", "tabId", "targetWorkspaceId", "beforeTabId")
                        .require("tabId", "targetWorkspaceId").build());
        return operation(PANEL_MOVE, "Move a tab or pane", "panel.move",
                "Changes the layout by one movement: reorder_tab {tabId, beforeTabId?}, dock_tab {tabId, targetTabId, side}, move_pane "
                        + "{panelId, targetPanelId, side} or transfer_tab {tabId, targetWorkspaceId, beforeTabId?}; side is left|right|top|bottom. "
                        + "Returns an operation; its result is {kind:\"panel_moved\", workspaceId, movement (the type), domainRevision}.",
                input).withConstraint(object().property("movement", variants).build());
    }

    /** One variant of {@code movement}: its type pinned, only its own fields allowed. */
    private static Schemas.ObjectSchema movement(String description, String type, String... fields) {
        return form(description, List.of(fields)).property("type", constant(type)).require("type");
    }

    private static ToolDefinition panelControl() {
        ObjectNode input = object().property("workspaceId", token("its workspace")).property("panelId", token("the terminal's panel"))
                .property("terminalSessionId", hex32("the terminal process"))
                .property("action", oneOfStrings("claim the input lease of a terminal you do not own, or release it", "claim", "release"))
                .require("workspaceId", "panelId", "terminalSessionId", "action").durable().closed().build();
        return operation(PANEL_CONTROL, "Claim or release a terminal", "terminal.execute",
                "Claims the input lease of a terminal this session did not create (the operation waits in awaiting_user until the admin "
                        + "approves), or releases a lease (never kills or types into the terminal). Returns an operation; its result is "
                        + "{kind:\"panel_control\", action, terminalSessionId, leaseId (claim only; null on release)}.",
                input);
    }

    private static ToolDefinition operation(String name, String title, String scope, String description, ObjectNode input) {
        return ToolDefinition.broker(name, title, description, Effect.OP, scope, input, OperationTools.operation());
    }
}
