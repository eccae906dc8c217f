package dev.lomicontrol.projects;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.ledger.Ledger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The projects the admin added (persisted), each with one default workspace. Adding a folder never
 * creates or changes anything in it; removing a project never deletes the folder. Every change
 * bumps the durable {@link #revision()} in the same transaction.
 */
public final class Projects {

    private static final int MAX_NAME = 256;

    private final Ledger store;
    private final Clock clock;
    private final RandomGenerator random;
    private final LayoutCache cache = new LayoutCache();

    public Projects(Ledger store, Clock clock) {
        this(store, clock, new SecureRandom());
    }

    Projects(Ledger store, Clock clock, RandomGenerator random) {
        this.store = store;
        this.clock = clock;
        this.random = random;
    }

    /** Adds an existing directory (absolute, canonical, not a link) as a project with a default workspace. */
    public Project add(Path folder, Optional<String> name) {
        Path root = canonicalDirectory(folder);
        String projectName = name.filter(n -> !n.isBlank())
                .orElse(
                        root.getFileName() == null
                                ? root.toString()
                                : root.getFileName().toString());
        try {
            return store.write(c -> {
                Project added = insert(c, root, projectName, random, clock);
                Layout.bumpRevision(c);
                return added;
            });
        } finally {
            cache.changed();
        }
    }

    /** Inserts a project row and its default workspace; INVALID_ARGUMENT when the folder is already a project. */
    static Project insert(Connection c, Path root, String projectName, RandomGenerator random, Clock clock)
            throws SQLException {
        validateName(projectName);
        ProjectId id = new ProjectId("prj-" + Ids.randomHex(random, 8));
        WorkspaceId workspace = new WorkspaceId("ws-" + Ids.randomHex(random, 8));
        long now = clock.millis();
        if (exists(c, "SELECT count(*) FROM project WHERE root = ?", root.toString())) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "project " + root + " was already added");
        }
        Layout.update(
                c,
                "INSERT INTO project (id, name, root, added_at, root_identity) VALUES (?, ?, ?, ?, ?)",
                id.value(),
                projectName,
                root.toString(),
                now,
                identity(root));
        Layout.update(
                c,
                "INSERT INTO workspace (id, project_id, name, created_at) VALUES (?, ?, ?, ?)",
                workspace.value(),
                id.value(),
                projectName,
                now);
        return load(c).stream().filter(p -> p.id().equals(id)).findFirst().orElseThrow();
    }

    /** Removes the project (and its workspaces) from the broker; the folder is left as it is. */
    public Project remove(ProjectId id) {
        Project project = get(id).orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no project " + id));
        try {
            store.change(c -> {
                Layout.update(c, "DELETE FROM project WHERE id = ?", id.value());
                Layout.bumpRevision(c);
            });
        } finally {
            cache.changed();
        }
        return project;
    }

    /** The projects as of the last commit (from memory; read from the store once per change). */
    public List<Project> list() {
        return cache.projects(() -> store.read(Projects::load));
    }

    public Optional<Project> get(ProjectId id) {
        return list().stream().filter(p -> p.id().equals(id)).findFirst();
    }

    /** Finds a project by id or by its exact name. */
    public Optional<Project> find(String idOrName) {
        return list().stream()
                .filter(p -> p.id().value().equals(idOrName) || p.name().equals(idOrName))
                .findFirst();
    }

    /** The durable layout revision (decimal {@code domainRevision}); bumped by every change. */
    public long revision() {
        return cache.revision(() -> store.read(Layout::readRevision));
    }

    /** Shared with {@link Layout}, whose changes drop it too. */
    LayoutCache cache() {
        return cache;
    }

    static List<Project> load(Connection c) throws SQLException {
        Map<String, List<Workspace>> workspaces = new LinkedHashMap<>();
        try (PreparedStatement s =
                        c.prepareStatement("SELECT id, project_id, name FROM workspace ORDER BY created_at, id");
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                workspaces
                        .computeIfAbsent(rs.getString(2), k -> new ArrayList<>())
                        .add(new Workspace(
                                new WorkspaceId(rs.getString(1)), new ProjectId(rs.getString(2)), rs.getString(3)));
            }
        }
        List<Project> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(
                        "SELECT id, name, root, added_at, root_identity FROM project ORDER BY added_at, id");
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                out.add(new Project(
                        new ProjectId(rs.getString(1)),
                        rs.getString(2),
                        Path.of(rs.getString(3)),
                        Instant.ofEpochMilli(rs.getLong(4)),
                        List.copyOf(workspaces.getOrDefault(rs.getString(1), List.of())),
                        rs.getString(5) == null ? "" : rs.getString(5)));
            }
        }
        return out;
    }

    /** {@code "<device>:<inode>"} of a folder, read without following a link. */
    public static String identity(Path folder) {
        try {
            Map<String, Object> attributes = Files.readAttributes(folder, "unix:dev,ino", LinkOption.NOFOLLOW_LINKS);
            return attributes.get("dev") + ":" + attributes.get("ino");
        } catch (IOException e) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "cannot read " + folder + ": " + e.getMessage(), e);
        }
    }

    /** The folder as an absolute, canonical, existing directory that is not a link; INVALID_ARGUMENT otherwise. */
    public static Path canonicalDirectory(Path folder) {
        if (!folder.isAbsolute()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "the project path must be absolute: " + folder);
        }
        try {
            Path real = folder.toRealPath();
            if (!real.equals(folder.normalize())) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        folder + " is not canonical (it resolves to " + real + "); add " + real);
            }
            if (!Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS)) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, folder + " is not a directory");
            }
            if (real.toString().length() > 4096) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "the project path exceeds 4096 characters");
            }
            return real;
        } catch (IOException e) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "cannot use " + folder + ": " + e.getMessage(), e);
        }
    }

    private static void validateName(String name) {
        if (name.length() > MAX_NAME || name.chars().anyMatch(Character::isISOControl)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "a project name is 1-256 characters without control characters");
        }
    }

    private static boolean exists(Connection c, String sql, Object arg) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setObject(1, arg);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() && rs.getLong(1) > 0;
            }
        }
    }
}
