package dev.lomicontrol.projects;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
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
            LayoutEdit edit = new LayoutEdit(c, current + 1, clock, random);
            T result = change.apply(edit);
            bumpRevision(c);
            return result;
        });
    }

    /** A terminal panel just added: the panel, the tab it opened in and the {@code domainRevision} the change made. */
    public record PlacedPanel(Panel panel, String tabId, long revision) {}

    /**
     * Adds a terminal panel showing {@code terminalSessionId} in a new focused tab at the end of
     * {@code workspace} (checked against {@code expectedRevision} when given; the revision bumps as
     * for every change). {@code owner} is the session that created it, empty for the admin's own
     * terminal ({@code terminal new} in the console); {@code cwd} is relative to the project root.
     * The caller has checked the title (a display name).
     */
    public PlacedPanel addTerminalPanel(
            OptionalLong expectedRevision,
            WorkspaceId workspace,
            String title,
            String terminalSessionId,
            Optional<String> owner,
            String profile,
            String cwd) {
        return change(expectedRevision, edit -> {
            Panel panel = edit.addPanel(
                    workspace,
                    PanelKind.TERMINAL,
                    title,
                    Optional.of(terminalSessionId),
                    owner,
                    Optional.of(profile),
                    cwd);
            String tab = edit.view(workspace).tabOf(panel.id()).map(Tab::id).orElse("");
            return new PlacedPanel(panel, tab, edit.newRevision());
        });
    }

    /** A layout change run inside the writer's transaction. */
    @FunctionalInterface
    public interface Change<T> {
        T apply(LayoutEdit edit) throws SQLException;
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

    static WorkspaceView readView(Connection c, WorkspaceId id) throws SQLException {
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

    static void validateName(String name) {
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
