package dev.lomicontrol.episodes;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The durable open/close records of episodes ({@code episode} table, V3). Runs inside the ledger's
 * single writer ({@code Ledger.write}) or on a reader ({@code Ledger.read}). Times are epoch ms.
 */
final class EpisodeStore {

    private static final String COLUMNS = "id, external_id, opened_at, closed_at, close_reason, attachments, last_activity";

    private EpisodeStore() {}

    static void insert(Connection c, LiveEpisode episode) throws SQLException {
        update(c, "INSERT INTO episode (id, external_id, opened_at, attachments, last_activity) VALUES (?, ?, ?, ?, ?)",
                episode.id.value(), episode.externalId.value(), episode.openedAt.toEpochMilli(), episode.attachments,
                episode.lastActivity.toEpochMilli());
    }

    /** Records a new attachment count and the last activity of an open episode. */
    static void attached(Connection c, EpisodeId id, int attachments, Instant lastActivity) throws SQLException {
        requireOne(update(c, "UPDATE episode SET attachments = ?, last_activity = ? WHERE id = ? AND closed_at IS NULL",
                attachments, lastActivity.toEpochMilli(), id.value()), id);
    }

    static void activity(Connection c, EpisodeId id, Instant lastActivity) throws SQLException {
        update(c, "UPDATE episode SET last_activity = ? WHERE id = ? AND closed_at IS NULL", lastActivity.toEpochMilli(), id.value());
    }

    static void close(Connection c, Episode closed) throws SQLException {
        requireOne(update(c, "UPDATE episode SET closed_at = ?, close_reason = ?, attachments = ?, last_activity = ? WHERE id = ? AND closed_at IS NULL",
                closed.closedAt().orElseThrow().toEpochMilli(), closed.closeReason().orElseThrow().wire(), closed.attachments(),
                closed.lastActivity().toEpochMilli(), closed.id().value()), closed.id());
    }

    /** Episodes whose close was never recorded (the broker died): they come back detached. */
    static List<LiveEpisode> open(Connection c) throws SQLException {
        List<LiveEpisode> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS + " FROM episode WHERE closed_at IS NULL ORDER BY external_id");
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                out.add(new LiveEpisode(new EpisodeId(rs.getString("id")), new ExternalId(rs.getString("external_id")),
                        Instant.ofEpochMilli(rs.getLong("opened_at")), rs.getInt("attachments"), Instant.ofEpochMilli(rs.getLong("last_activity"))));
            }
        }
        return out;
    }

    /** The {@code limit} most recently closed episodes, newest first. */
    static List<Episode> recentlyClosed(Connection c, int limit) throws SQLException {
        List<Episode> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS + " FROM episode WHERE closed_at IS NOT NULL"
                + " ORDER BY closed_at DESC, id LIMIT ?")) {
            s.setInt(1, limit);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(closed(rs));
                }
            }
        }
        return out;
    }

    private static Episode closed(ResultSet rs) throws SQLException {
        return new Episode(new EpisodeId(rs.getString("id")), new ExternalId(rs.getString("external_id")), EpisodeState.CLOSED, Optional.empty(),
                Instant.ofEpochMilli(rs.getLong("opened_at")), Instant.ofEpochMilli(rs.getLong("last_activity")), rs.getInt("attachments"),
                Optional.empty(), Optional.of(Instant.ofEpochMilli(rs.getLong("closed_at"))),
                Optional.of(CloseReason.fromWire(rs.getString("close_reason"))));
    }

    private static void requireOne(int rows, EpisodeId id) {
        if (rows != 1) {
            throw new IllegalStateException("episode " + id + " is not open in the store");
        }
    }

    private static int update(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            return s.executeUpdate();
        }
    }
}
