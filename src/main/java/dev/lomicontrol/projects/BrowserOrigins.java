package dev.lomicontrol.projects;

import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.ledger.Ledger;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The web origins the admin approved per project (table {@code browser_origin}, V8): durable,
 * removed with their project, read fresh on every check (the browser's network layer asks for each
 * document and redirect, so a revocation takes effect on the next request).
 */
public final class BrowserOrigins {

    /** One approval: the project, the exact origin, when and through what it was approved. */
    public record Approved(ProjectId project, String origin, Instant approvedAt, String approvedBy) {}

    private final Ledger store;
    private final Clock clock;

    public BrowserOrigins(Ledger store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    public boolean approved(ProjectId project, String origin) {
        return store.read(c -> {
            try (PreparedStatement s =
                    c.prepareStatement("SELECT 1 FROM browser_origin WHERE project_id = ? AND origin = ?")) {
                s.setString(1, project.value());
                s.setString(2, origin);
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    /** Remembers the origin for the project (again: keeps the first approval). */
    public void approve(ProjectId project, String origin, String approvedBy) {
        store.write(c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "INSERT INTO browser_origin (project_id, origin, approved_at, approved_by) VALUES (?, ?, ?, ?)"
                            + " ON CONFLICT (project_id, origin) DO NOTHING")) {
                s.setString(1, project.value());
                s.setString(2, origin);
                s.setLong(3, clock.millis());
                s.setString(4, approvedBy);
                return s.executeUpdate();
            }
        });
    }

    /** Forgets the approval; answers whether there was one. */
    public boolean revoke(ProjectId project, String origin) {
        return store.write(c -> {
            try (PreparedStatement s =
                    c.prepareStatement("DELETE FROM browser_origin WHERE project_id = ? AND origin = ?")) {
                s.setString(1, project.value());
                s.setString(2, origin);
                return s.executeUpdate() > 0;
            }
        });
    }

    /** Every approval, by project then origin. */
    public List<Approved> list() {
        return store.read(c -> {
            List<Approved> out = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement(
                            "SELECT project_id, origin, approved_at, approved_by FROM browser_origin ORDER BY project_id, origin");
                    ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(new Approved(
                            new ProjectId(rs.getString(1)),
                            rs.getString(2),
                            Instant.ofEpochMilli(rs.getLong(3)),
                            rs.getString(4)));
                }
            }
            return out;
        });
    }
}
