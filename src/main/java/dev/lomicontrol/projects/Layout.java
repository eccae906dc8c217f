package dev.lomicontrol.projects;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.ledger.Ledger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * The durable layout: projects → workspaces → tabs → panes → panels, and the decimal
 * {@code domainRevision} that every change bumps in the same transaction. A change runs in the
 * ledger's single writer, so checking {@code expectedRevision} and applying the change are one
 * atomic step: a stale revision changes nothing (REVISION_CONFLICT).
 */
public final class Layout {

    static final int MAX_PANELS = 128;
    static final int MAX_NAME = 256;

    private final Ledger store;
    private final Clock clock;
    private final RandomGenerator random;
    private final LayoutCache cache;

    /** {@code projects} shares its cache: a layout change drops what both read from memory. */
    public Layout(Projects projects, Ledger store, Clock clock, RandomGenerator random) {
        this.cache = projects.cache();
        this.store = store;
        this.clock = clock;
        this.random = random;
    }

    /** The current domain revision (durable: it keeps counting across restarts). */
    public long revision() {
        return cache.revision(() -> store.read(Layout::readRevision));
    }

    /** One workspace as of the last commit (from memory; read once per change), or TARGET_NOT_FOUND. */
    public WorkspaceView view(WorkspaceId workspace) {
        return cache.view(workspace, () -> store.read(c -> readView(c, workspace)));
    }

    /** Checks that {@code movement} applies to the workspace as it is now (unknown tabs/panels, self-moves), changing nothing. */
    public void checkMovement(WorkspaceId workspace, Movement movement) {
        WorkspaceView view = view(workspace);
        if (movement instanceof Movement.TransferTab transfer) {
            Panes.tab(view.tabs(), transfer.tabId());
            WorkspaceView target = view(transfer.targetWorkspace());
            transfer.beforeTabId().ifPresent(before -> Panes.tab(target.tabs(), before));
            if (!target.project().id().equals(view.project().id())
                    || target.workspace().id().equals(workspace)) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "transfer_tab moves a tab to another workspace of the same project");
            }
            return;
        }
        Panes.apply(view.tabs(), movement);
    }

    /**
     * Applies {@code change} if the domain revision still equals {@code expectedRevision} (empty: no
     * check), bumping it once; returns what the change returned. Any refusal inside rolls it all back.
     */
    public <T> T change(OptionalLong expectedRevision, Change<T> change) {
        try {
            return write(expectedRevision, change);
        } finally {
            cache.changed();
        }
    }

    private <T> T write(OptionalLong expectedRevision, Change<T> change) {
        return store.write(c -> {
            long current = readRevision(c);
            if (expectedRevision.isPresent() && expectedRevision.getAsLong() != current) {
                throw new LomiException(
                        ErrorCode.REVISION_CONFLICT,
                        "the layout changed: expectedRevision " + expectedRevision.getAsLong()
                                + " but domainRevision is now " + current
                                + "; list again and retry with a new requestKey");
            }
            Edit edit = new Edit(c, current + 1);
            T result = change.apply(edit);
            bumpRevision(c);
            return result;
        });
    }

    /** A layout change run inside the writer's transaction. */
    @FunctionalInterface
    public interface Change<T> {
        T apply(Edit edit) throws SQLException;
    }

    /** The editing operations available to a change; all of them write through one connection. */
    public final class Edit {

        private final Connection c;
        private final long newRevision;

        private Edit(Connection c, long newRevision) {
            this.c = c;
            this.newRevision = newRevision;
        }

        /** The domain revision this change commits as. */
        public long newRevision() {
            return newRevision;
        }

        public WorkspaceView view(WorkspaceId workspace) throws SQLException {
            return readView(c, workspace);
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
            validateName(name);
            WorkspaceId id = new WorkspaceId("ws-" + Ids.randomHex(random, 8));
            update(
                    c,
                    "INSERT INTO workspace (id, project_id, name, created_at) VALUES (?, ?, ?, ?)",
                    id.value(),
                    project.value(),
                    name,
                    clock.millis());
            addPanel(id, PanelKind.SCRATCH, "Untitled", Optional.empty(), Optional.empty(), Optional.empty(), ".");
            return readView(c, id);
        }

        public void renameWorkspace(WorkspaceId workspace, String name) throws SQLException {
            validateName(name);
            update(c, "UPDATE workspace SET name = ? WHERE id = ?", name, workspace.value());
        }

        /** Removes the workspace and its panels from the broker (never any folder). */
        public void deleteWorkspace(WorkspaceId workspace) throws SQLException {
            update(c, "DELETE FROM workspace WHERE id = ?", workspace.value());
        }

        /** Remembers the workspace the admin's view shows. */
        public void select(WorkspaceId workspace) throws SQLException {
            update(
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
        public Panel addGitPanel(WorkspaceId workspace, String title, String owner, String gitView)
                throws SQLException {
            return insertPanel(
                    workspace,
                    PanelKind.GIT,
                    title,
                    Optional.empty(),
                    Optional.of(owner),
                    Optional.empty(),
                    ".",
                    Optional.empty(),
                    Optional.of(gitView));
        }

        /** A chat panel showing the shared conversation {@code conversationId}. */
        public Panel addChatPanel(WorkspaceId workspace, String title, String owner, String conversationId)
                throws SQLException {
            String view = "{\"conversationId\":\"" + conversationId + "\",\"type\":\"chat\"}";
            return insertPanel(
                    workspace,
                    PanelKind.CHAT,
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
            WorkspaceView view = readView(c, workspace);
            if (view.panels().size() >= MAX_PANELS) {
                throw new LomiException(
                        ErrorCode.RESOURCE_EXHAUSTED,
                        "a workspace holds at most " + MAX_PANELS + " panels; close one first");
            }
            String panelId = "pnl-" + Ids.randomHex(random, 8);
            update(
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
            return new Panel(
                    panelId, workspace, kind, title, terminalSessionId, owner, profile, cwd, documentId, gitView);
        }

        /** Removes a panel and its pane; an emptied tab disappears; focus moves to a neighbour. */
        public void removePanel(WorkspaceId workspace, String panelId) throws SQLException {
            WorkspaceView view = readView(c, workspace);
            List<Tab> tabs = Panes.without(view.tabs(), panelId);
            update(c, "DELETE FROM panel WHERE id = ?", panelId);
            Optional<String> active = view.activePanelId().filter(a -> !a.equals(panelId));
            if (active.isEmpty() && !tabs.isEmpty()) {
                active = Optional.of(tabs.get(tabs.size() - 1).root().panelIds().get(0));
            }
            writeTabs(workspace, tabs, active);
        }

        public void focus(WorkspaceId workspace, String panelId) throws SQLException {
            update(c, "UPDATE workspace SET active_panel = ? WHERE id = ?", panelId, workspace.value());
        }

        /** Applies a movement within {@code workspace} (or into another workspace for transfer_tab). */
        public void move(WorkspaceId workspace, Movement movement) throws SQLException {
            WorkspaceView view = readView(c, workspace);
            if (movement instanceof Movement.TransferTab transfer) {
                WorkspaceView target = readView(c, transfer.targetWorkspace());
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
                        > MAX_PANELS) {
                    throw new LomiException(
                            ErrorCode.RESOURCE_EXHAUSTED,
                            "the target workspace would exceed " + MAX_PANELS + " panels");
                }
                Tab moved = Panes.tab(view.tabs(), transfer.tabId());
                List<Tab> source = new ArrayList<>(view.tabs());
                source.remove(moved);
                List<Tab> into = Panes.insertBefore(target.tabs(), moved, transfer.beforeTabId());
                for (String panel : moved.root().panelIds()) {
                    update(
                            c,
                            "UPDATE panel SET workspace_id = ? WHERE id = ?",
                            target.workspace().id().value(),
                            panel);
                }
                Optional<String> active = view.activePanelId()
                        .filter(a -> !moved.root().panelIds().contains(a));
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
            update(c, "DELETE FROM project WHERE id = ?", project.value());
        }

        private void writeTabs(WorkspaceId workspace, List<Tab> tabs, Optional<String> active) throws SQLException {
            update(
                    c,
                    "UPDATE workspace SET tabs = ?, active_panel = ? WHERE id = ?",
                    LayoutJson.write(tabs),
                    active.orElse(null),
                    workspace.value());
        }
    }

    static long readRevision(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT value FROM layout_state WHERE name = 'domain_revision'");
                ResultSet rs = s.executeQuery()) {
            return rs.next() ? rs.getLong(1) : 1;
        }
    }

    static void bumpRevision(Connection c) throws SQLException {
        update(c, "UPDATE layout_state SET value = value + 1 WHERE name = 'domain_revision'");
    }

    private static WorkspaceView readView(Connection c, WorkspaceId id) throws SQLException {
        String projectId;
        String tabs;
        Optional<String> active;
        try (PreparedStatement s =
                c.prepareStatement("SELECT project_id, tabs, active_panel FROM workspace WHERE id = ?")) {
            s.setString(1, id.value());
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no workspace " + id);
                }
                projectId = rs.getString(1);
                tabs = rs.getString(2);
                active = Optional.ofNullable(rs.getString(3));
            }
        }
        Project project = Projects.load(c).stream()
                .filter(p -> p.id().value().equals(projectId))
                .findFirst()
                .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no workspace " + id));
        Workspace workspace = project.workspaces().stream()
                .filter(w -> w.id().equals(id))
                .findFirst()
                .orElseThrow();
        List<Panel> panels = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(
                "SELECT id, kind, title, terminal_session_id, owner_session, profile, cwd, document_id, view FROM panel"
                        + " WHERE workspace_id = ? ORDER BY created_at, id")) {
            s.setString(1, id.value());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    panels.add(new Panel(
                            rs.getString(1),
                            id,
                            PanelKind.fromWire(rs.getString(2)),
                            rs.getString(3),
                            Optional.ofNullable(rs.getString(4)),
                            Optional.ofNullable(rs.getString(5)),
                            Optional.ofNullable(rs.getString(6)),
                            rs.getString(7),
                            Optional.ofNullable(rs.getString(8)),
                            Optional.ofNullable(rs.getString(9))));
                }
            }
        }
        return new WorkspaceView(project, workspace, LayoutJson.parse(tabs), panels, active, readRevision(c));
    }

    private static void validateName(String name) {
        if (name.isEmpty() || name.length() > MAX_NAME || name.chars().anyMatch(Character::isISOControl)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "a name is 1-256 characters without control characters");
        }
    }

    static int update(Connection c, String sql, @Nullable Object... args) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            return s.executeUpdate();
        }
    }
}
