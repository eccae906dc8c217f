package dev.lomicontrol.projects;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.WorkspaceId;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The editing operations available to a {@link Layout.Change}; all of them write through one
 * connection, the ledger writer's, inside the change's transaction, which commits as {@link
 * #newRevision}.
 */
public final class LayoutEdit {

    private final Connection c;
    private final long newRevision;
    private final Clock clock;
    private final RandomGenerator random;

    LayoutEdit(Connection c, long newRevision, Clock clock, RandomGenerator random) {
        this.c = c;
        this.newRevision = newRevision;
        this.clock = clock;
        this.random = random;
    }

    /** The domain revision this change commits as. */
    public long newRevision() {
        return newRevision;
    }

    public WorkspaceView view(WorkspaceId workspace) throws SQLException {
        return Layout.readView(c, workspace);
    }

    /** The project as it is inside this transaction, or TARGET_NOT_FOUND. */
    public Project project(ProjectId project) throws SQLException {
        return Projects.load(c).stream()
                .filter(p -> p.id().equals(project))
                .findFirst()
                .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no project " + project));
    }

    /** A new workspace in {@code project} with one blank scratch panel (no shell starts). */
    public WorkspaceView createWorkspace(ProjectId project, String name) throws SQLException {
        Layout.validateName(name);
        WorkspaceId id = new WorkspaceId("ws-" + Ids.randomHex(random, 8));
        Layout.update(
                c,
                "INSERT INTO workspace (id, project_id, name, created_at) VALUES (?, ?, ?, ?)",
                id.value(),
                project.value(),
                name,
                clock.millis());
        addPanel(id, PanelKind.SCRATCH, "Untitled", Optional.empty(), Optional.empty(), Optional.empty(), ".");
        return Layout.readView(c, id);
    }

    public void renameWorkspace(WorkspaceId workspace, String name) throws SQLException {
        Layout.validateName(name);
        Layout.update(c, "UPDATE workspace SET name = ? WHERE id = ?", name, workspace.value());
    }

    /** Removes the workspace and its panels from the broker (never any folder). */
    public void deleteWorkspace(WorkspaceId workspace) throws SQLException {
        Layout.update(c, "DELETE FROM workspace WHERE id = ?", workspace.value());
    }

    /** Remembers the workspace the admin's view shows. */
    public void select(WorkspaceId workspace) throws SQLException {
        Layout.update(
                c,
                "INSERT INTO broker_setting (name, value, updated_at) VALUES ('selected_workspace', ?, ?)"
                        + " ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                workspace.value(),
                clock.millis());
    }

    /** A new panel in a new tab at the end, focused. RESOURCE_EXHAUSTED beyond 128 panels. */
    public Panel addPanel(
            WorkspaceId workspace,
            PanelKind kind,
            String title,
            Optional<String> terminalSessionId,
            Optional<String> owner,
            Optional<String> profile,
            String cwd)
            throws SQLException {
        return addPanel(workspace, kind, title, terminalSessionId, owner, profile, cwd, Optional.empty());
    }

    /** The same, for an editor panel showing {@code documentId}. */
    public Panel addPanel(
            WorkspaceId workspace,
            PanelKind kind,
            String title,
            Optional<String> terminalSessionId,
            Optional<String> owner,
            Optional<String> profile,
            String cwd,
            Optional<String> documentId)
            throws SQLException {
        return insertPanel(
                workspace, kind, title, terminalSessionId, owner, profile, cwd, documentId, Optional.empty());
    }

    /** A read-only git panel showing {@code gitView} (canonical JSON of a diff or commit view). */
    public Panel addGitPanel(WorkspaceId workspace, String title, String owner, String gitView) throws SQLException {
        return addViewPanel(workspace, PanelKind.GIT, title, owner, gitView);
    }

    /** A chat panel showing the shared conversation {@code conversationId}. */
    public Panel addChatPanel(WorkspaceId workspace, String title, String owner, String conversationId)
            throws SQLException {
        String view = "{\"conversationId\":\"" + conversationId + "\",\"type\":\"chat\"}";
        return addViewPanel(workspace, PanelKind.CHAT, title, owner, view);
    }

    /** An Android panel showing the device {@code deviceId} (a lower-case UUID). */
    public Panel addAndroidPanel(WorkspaceId workspace, String title, String owner, String deviceId)
            throws SQLException {
        String view = "{\"deviceId\":\"" + deviceId + "\",\"type\":\"android\"}";
        return addViewPanel(workspace, PanelKind.ANDROID, title, owner, view);
    }

    /** A panel with nothing live behind it that shows {@code view} (its stored JSON), created by {@code owner}. */
    private Panel addViewPanel(WorkspaceId workspace, PanelKind kind, String title, String owner, String view)
            throws SQLException {
        return insertPanel(
                workspace,
                kind,
                title,
                Optional.empty(),
                Optional.of(owner),
                Optional.empty(),
                ".",
                Optional.empty(),
                Optional.of(view));
    }

    private Panel insertPanel(
            WorkspaceId workspace,
            PanelKind kind,
            String title,
            Optional<String> terminalSessionId,
            Optional<String> owner,
            Optional<String> profile,
            String cwd,
            Optional<String> documentId,
            Optional<String> gitView)
            throws SQLException {
        WorkspaceView view = Layout.readView(c, workspace);
        if (view.panels().size() >= Layout.MAX_PANELS) {
            throw new LomiException(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "a workspace holds at most " + Layout.MAX_PANELS + " panels; close one first");
        }
        String panelId = "pnl-" + Ids.randomHex(random, 8);
        Layout.update(
                c,
                "INSERT INTO panel (id, workspace_id, kind, title, terminal_session_id, owner_session, profile, cwd, document_id, created_at, view)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                panelId,
                workspace.value(),
                kind.wire(),
                title,
                terminalSessionId.orElse(null),
                owner.orElse(null),
                profile.orElse(null),
                cwd,
                documentId.orElse(null),
                clock.millis(),
                gitView.orElse(null));
        List<Tab> tabs = new ArrayList<>(view.tabs());
        tabs.add(new Tab("tab-" + Ids.randomHex(random, 8), new Pane.Leaf(panelId)));
        writeTabs(workspace, tabs, Optional.of(panelId));
        return new Panel(panelId, workspace, kind, title, terminalSessionId, owner, profile, cwd, documentId, gitView);
    }

    /** Removes a panel and its pane; an emptied tab disappears; focus moves to a neighbour. */
    public void removePanel(WorkspaceId workspace, String panelId) throws SQLException {
        WorkspaceView view = Layout.readView(c, workspace);
        List<Tab> tabs = Panes.without(view.tabs(), panelId);
        Layout.update(c, "DELETE FROM panel WHERE id = ?", panelId);
        Optional<String> active = view.activePanelId().filter(a -> !a.equals(panelId));
        if (active.isEmpty() && !tabs.isEmpty()) {
            active = Optional.of(tabs.get(tabs.size() - 1).root().panelIds().get(0));
        }
        writeTabs(workspace, tabs, active);
    }

    public void focus(WorkspaceId workspace, String panelId) throws SQLException {
        Layout.update(c, "UPDATE workspace SET active_panel = ? WHERE id = ?", panelId, workspace.value());
    }

    /** Applies a movement within {@code workspace} (or into another workspace for transfer_tab). */
    public void move(WorkspaceId workspace, Movement movement) throws SQLException {
        WorkspaceView view = Layout.readView(c, workspace);
        if (movement instanceof Movement.TransferTab transfer) {
            WorkspaceView target = Layout.readView(c, transfer.targetWorkspace());
            if (!target.project().id().equals(view.project().id())
                    || target.workspace().id().equals(workspace)) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "transfer_tab moves a tab to another workspace of the same project");
            }
            if (target.panels().size()
                            + Panes.tab(view.tabs(), transfer.tabId())
                                    .root()
                                    .panelIds()
                                    .size()
                    > Layout.MAX_PANELS) {
                throw new LomiException(
                        ErrorCode.RESOURCE_EXHAUSTED,
                        "the target workspace would exceed " + Layout.MAX_PANELS + " panels");
            }
            Tab moved = Panes.tab(view.tabs(), transfer.tabId());
            List<Tab> source = new ArrayList<>(view.tabs());
            source.remove(moved);
            List<Tab> into = Panes.insertBefore(target.tabs(), moved, transfer.beforeTabId());
            for (String panel : moved.root().panelIds()) {
                Layout.update(
                        c,
                        "UPDATE panel SET workspace_id = ? WHERE id = ?",
                        target.workspace().id().value(),
                        panel);
            }
            Optional<String> active =
                    view.activePanelId().filter(a -> !moved.root().panelIds().contains(a));
            if (active.isEmpty() && !source.isEmpty()) {
                active = Optional.of(source.get(0).root().panelIds().get(0));
            }
            writeTabs(workspace, source, active);
            writeTabs(
                    target.workspace().id(),
                    into,
                    Optional.of(moved.root().panelIds().get(0)));
            return;
        }
        writeTabs(workspace, Panes.apply(view.tabs(), movement), view.activePanelId());
    }

    /** Adds a project folder (already validated and canonical) with one default workspace. */
    public Project addProject(java.nio.file.Path root, String name) throws SQLException {
        return Projects.insert(c, root, name, random, clock);
    }

    public void removeProject(ProjectId project) throws SQLException {
        Layout.update(c, "DELETE FROM project WHERE id = ?", project.value());
    }

    private void writeTabs(WorkspaceId workspace, List<Tab> tabs, Optional<String> active) throws SQLException {
        Layout.update(
                c,
                "UPDATE workspace SET tabs = ?, active_panel = ? WHERE id = ?",
                LayoutJson.write(tabs),
                active.orElse(null),
                workspace.value());
    }
}
