package dev.lomicontrol.layout.api;

import dev.lomicontrol.core.ErrorMessages;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Default;
import dev.lomicontrol.tools.DisplayName;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.Hex32;
import dev.lomicontrol.tools.LayoutBased;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.ScopeNeed;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Tagged;
import dev.lomicontrol.tools.Token;
import dev.lomicontrol.tools.ToolSpec;
import dev.lomicontrol.tools.Untagged;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Workspace, project and panel tools (SPEC §9, §10 Layout; the reference's fields of research/lomi.md
 * §1c, §1d). Every change is a durable operation based on an {@code expectedRevision} (the
 * {@code domainRevision} of lomi_workspace_list / lomi_panel_list). {@code lomi_panel_control} is
 * declared with the terminal tools.
 */
public final class LayoutSpecs {

    private LayoutSpecs() {}

    // read by the @Doc annotations of record components below, which UnusedVariable does not see
    @SuppressWarnings("UnusedVariable")
    private static final String EXPECTED = "the domainRevision";

    // ---- inputs ----

    /** The reference's rename-shaped input: an anchor workspace and the new workspace's name. */
    public record WorkspaceCreate(
            @Doc("a workspace of the same project") WorkspaceId workspaceId,

            DisplayName name,
            @Doc(EXPECTED) Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    /** Exactly one form: rename {name} or {action: select|close}; both, or neither, is refused. */
    @Untagged
    public sealed interface WorkspaceUpdate extends Durable, LayoutBased permits Rename, Act {
        WorkspaceId workspaceId();
    }

    public record Rename(
            WorkspaceId workspaceId,
            @Doc("rename (without action)") DisplayName name,
            @Doc(EXPECTED) Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements WorkspaceUpdate {}

    public record Act(
            @Doc("without name") Action action,

            WorkspaceId workspaceId,
            @Doc(EXPECTED) Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements WorkspaceUpdate {}

    public enum Action {
        SELECT,
        CLOSE
    }

    public record ProjectOpen(
            @Doc("a workspace of this connection") WorkspaceId workspaceId,

            @Doc("absolute path") @Len(min = 1, max = 4096) @Matches("/[^\\u0000]*")
            String projectPath,

            DisplayName name,

            @Doc(EXPECTED) Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    public record ProjectClose(
            ProjectId projectId,
            @Doc("a workspace of that project") WorkspaceId workspaceId,
            @Doc(EXPECTED) Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    public record PanelList(
            WorkspaceId workspaceId,

            @Range(min = 1, max = 500) @Default("100") int limit,

            @Len(min = 1, max = 1024) Optional<String> cursor) {}

    /** The reference's {@code PanelMutationInput} of focus and close. */
    public record PanelMutation(
            WorkspaceId workspaceId,
            Token panelId,

            @Doc("from lomi_panel_list") Optional<Hex32> terminalSessionId,

            @Doc("from lomi_panel_list") Optional<Token> browserGeneration,

            @Doc(EXPECTED) Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    public record PanelMove(
            WorkspaceId workspaceId,

            Movement movement,

            @Doc(EXPECTED) Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    @Tagged("type")
    public sealed interface Movement permits ReorderTab, DockTab, MovePane, TransferTab {}

    @Tag("reorder_tab")
    public record ReorderTab(
            Token tabId, @Doc("null = at the end") Optional<Token> beforeTabId) implements Movement {}

    @Tag("dock_tab")
    public record DockTab(Token tabId, Token targetTabId, Side side) implements Movement {}

    @Tag("move_pane")
    public record MovePane(Token panelId, Token targetPanelId, Side side) implements Movement {}

    @Tag("transfer_tab")
    public record TransferTab(
            Token tabId,

            @Doc("same project") WorkspaceId targetWorkspaceId,

            @Doc("null = at the end") Optional<Token> beforeTabId)
            implements Movement {}

    public enum Side {
        LEFT,
        RIGHT,
        TOP,
        BOTTOM
    }

    // ---- outputs ----

    @Tag("panel_list")
    public record Panels(
            @Doc("the workspace") WorkspaceId workspaceId,

            @Doc("the layout revision; send it as expectedRevision")
            Decimal domainRevision,

            @Doc("the active panel; null when none") Optional<String> activePanelId,
            @Doc("the tabs in order") List<TabItem> tabs,
            @Doc("the panels of this page") List<PanelItem> panels,
            @Doc("whether another page follows") boolean hasMore,

            @Doc("cursor of the next page (bound to this revision); null on the last page")
            Optional<String> nextCursor) {}

    public record TabItem(
            @Doc("tab id") String tabId,
            @Doc("the panels of this tab") List<String> panelIds,
            @Doc("the tab's split tree of panes") JsonNode layout) {}

    public enum PanelKind {
        SCRATCH,
        TERMINAL,
        EDITOR,
        GIT,
        BROWSER,
        CHAT,
        ANDROID
    }

    public enum Ownership {
        THIS_SESSION,
        OTHER_SESSION,
        NONE
    }

    public enum RuntimeState {
        NOT_STARTED,
        STARTING,
        RUNNING,
        READY,
        EXITED,
        UNOBSERVED
    }

    public record PanelItem(
            @Doc("panel id") String panelId,
            @Doc("the tab that holds it") String tabId,
            @Doc("what the panel shows") PanelKind kind,
            @Doc("its title") String title,

            @Doc("the terminal process it shows now; null when none")
            Optional<String> terminalSessionId,

            @Doc(
                    "browser panels: the live browser generation it shows; null when none (not a browser, or its browser closed)")
            Optional<String> browserGeneration,

            @Doc("who owns its terminal: this_session, other_session or none")
            Ownership ownership,

            @Doc("the terminal's life") RuntimeState runtimeState,

            @Doc("editor panels: the shared document it shows; null otherwise")
            Optional<String> documentId,

            @Doc(
                    "git panels: the view it shows, {type:\"diff\", relativePath, staged} or {type:\"commit\", commit}; null otherwise")
            Optional<JsonNode> gitView,

            @Doc("whether this session holds its input lease")
            boolean inputControlled,

            @Doc("whether it is the focused panel") boolean focused) {}

    @Tag("workspace_created")
    public record WorkspaceCreated(
            @Doc("the layout revision after the change") Decimal domainRevision,
            WorkspaceId workspaceId,
            ProjectId projectId,
            @Doc("the new workspace's scratch panel") String panelId) {}

    public enum Updated {
        RENAME,
        SELECT,
        CLOSE
    }

    @Tag("workspace_updated")
    public record WorkspaceUpdated(
            @Doc("the layout revision after the change") Decimal domainRevision,
            @Doc("what was done") Updated action,
            WorkspaceId workspaceId) {}

    @Tag("project_opened")
    public record ProjectOpened(
            @Doc("the layout revision after the change") Decimal domainRevision,
            ProjectId projectId,
            @Doc("the project's first workspace") WorkspaceId workspaceId,
            @Doc("the canonical folder") String projectPath) {}

    @Tag("project_closed")
    public record ProjectClosed(
            @Doc("the layout revision after the change") Decimal domainRevision,
            ProjectId projectId,
            @Doc("the workspaces that closed with it") List<WorkspaceId> closedWorkspaceIds) {}

    @Tag("panel_focused")
    public record PanelFocused(
            @Doc("the layout revision after the change") Decimal domainRevision,
            WorkspaceId workspaceId,
            String panelId) {}

    @Tag("panel_closed")
    public record PanelClosed(
            @Doc("the layout revision after the change") Decimal domainRevision,
            WorkspaceId workspaceId,
            String panelId) {}

    public enum MovementType {
        REORDER_TAB,
        DOCK_TAB,
        MOVE_PANE,
        TRANSFER_TAB
    }

    @Tag("panel_moved")
    public record PanelMoved(
            @Doc("the layout revision after the change") Decimal domainRevision,
            WorkspaceId workspaceId,
            @Doc("the movement's type") MovementType movement) {}

    // ---- tools ----

    public static final ToolSpec<WorkspaceCreate> WORKSPACE_CREATE = ToolSpec.operation(
            "lomi_workspace_create",
            "Create a workspace",
            "workspace.write",
            "--I-",
            WorkspaceCreate.class,
            WorkspaceCreated.class,
            "Creates a workspace in the anchor's project with one blank panel.");

    public static final ToolSpec<WorkspaceUpdate> WORKSPACE_UPDATE = ToolSpec.operation(
                    "lomi_workspace_update",
                    "Rename, select or close a workspace",
                    "workspace.write",
                    "-DI-",
                    WorkspaceUpdate.class,
                    WorkspaceUpdated.class,
                    "Renames, selects or closes a workspace. Close never deletes the folder.")
            .withVariantScopes(in -> in instanceof Act act && act.action() == Action.CLOSE
                    ? List.of(ScopeNeed.of(
                            "workspace.close", ErrorMessages.missingScope("closing a workspace", "workspace.close")))
                    : List.of());

    public static final ToolSpec<ProjectOpen> PROJECT_OPEN = ToolSpec.operation(
            "lomi_project_open",
            "Open a project",
            "project.open",
            "--I-",
            ProjectOpen.class,
            ProjectOpened.class,
            "Asks the admin to open a folder as a new project with one workspace; awaiting_user until decided.");

    public static final ToolSpec<ProjectClose> PROJECT_CLOSE = ToolSpec.operation(
            "lomi_project_close",
            "Close a project",
            "project.close",
            "-DI-",
            ProjectClose.class,
            ProjectClosed.class,
            "Closes a project and all its workspaces; the folder is kept.");

    public static final ToolSpec<PanelList> PANEL_LIST = ToolSpec.read(
            "lomi_panel_list",
            "List panels",
            "workspace.read",
            "R-I-",
            PanelList.class,
            Panels.class,
            "The tabs, layout and panels of a workspace, with its domainRevision.");

    public static final ToolSpec<PanelMutation> PANEL_FOCUS = ToolSpec.operation(
            "lomi_panel_focus",
            "Focus a panel",
            "panel.focus",
            "--I-",
            PanelMutation.class,
            PanelFocused.class,
            "Focuses a panel and its tab.");

    public static final ToolSpec<PanelMutation> PANEL_CLOSE = ToolSpec.operation(
            "lomi_panel_close",
            "Close a panel",
            "panel.close",
            "-DI-",
            PanelMutation.class,
            PanelClosed.class,
            "Closes a panel. An editor with unsaved changes waits for the admin (approve = discard).");

    public static final ToolSpec<PanelMove> PANEL_MOVE = ToolSpec.operation(
            "lomi_panel_move",
            "Move a tab or pane",
            "panel.move",
            "--I-",
            PanelMove.class,
            PanelMoved.class,
            "Changes the layout by one movement: reorder_tab, dock_tab, move_pane or transfer_tab.");

    public static final List<ToolSpec<?>> ALL = List.of(
            WORKSPACE_CREATE,
            WORKSPACE_UPDATE,
            PROJECT_OPEN,
            PROJECT_CLOSE,
            PANEL_LIST,
            PANEL_FOCUS,
            PANEL_CLOSE,
            PANEL_MOVE);
}
