package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.ledger.LedgerStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Which rows the admin's purge may delete (SPEC §6, issue 19), as SQL shared by {@code ledger
 * status} (what each step would free) and the purge itself (what it deletes).
 *
 * <p>A receipt exists to answer retries of its identity. It is <em>retired</em> once its retry
 * epoch can no longer be used: another broker run issued the epoch, the epoch's connection ended
 * ({@code retry_epoch.ended_at}), or its retention ({@code retain_until}: the 24 h epoch window and
 * 24 h after completion) passed. A retired receipt is purgeable when it is settled — succeeded,
 * failed, cancelled, or outcome_unknown with the admin's finding recorded. Receipts of a live
 * connection of this run are never purgeable before their retention passed. An epoch is purgeable
 * when it can no longer be used (expired, ended, another run) and no receipt is left that refers to it.
 *
 * <p>Every statement starts with the parameters {@code p(now, instance, before, ops, epochs, head)}:
 * {@code before} limits the purge to rows settled (epochs: issued) before it; {@code ops} and
 * {@code epochs} are JSON arrays of the ids the export holds, {@code head} its history head (NULL
 * and MAX: no such limit, for counting). A receipt is in the export as it is now exactly when the
 * export holds it and none of its history rows is newer than the export's head: every change of a
 * receipt appends a history row, and history sequence numbers are never reused.
 */
public final class ReclaimSql {

    private static final String PARAMETERS =
            "WITH p(now, instance, before, ops, epochs, head) AS (SELECT ?, ?, ?, ?, ?, ?),";

    private static final String PURGEABLE_OPS =
            " purgeable_ops(id) AS (SELECT o.id FROM operation o JOIN retry_epoch e ON e.id = o.retry_epoch, p"
                    + " WHERE o.state IN ('succeeded', 'failed', 'cancelled', 'outcome_unknown')"
                    + " AND (o.state <> 'outcome_unknown' OR o.resolution IS NOT NULL)"
                    + " AND (o.retain_until < p.now OR e.instance_id <> p.instance OR e.ended_at IS NOT NULL)"
                    + " AND coalesce(o.completed_at, o.updated_at) < p.before"
                    + " AND (p.ops IS NULL OR o.id IN (SELECT value FROM json_each(p.ops)))"
                    + " AND NOT EXISTS (SELECT 1 FROM operation_history h WHERE h.operation_id = o.id AND h.seq > p.head)),";

    private static final String PURGEABLE_EPOCHS = " purgeable_epochs(id) AS (SELECT e.id FROM retry_epoch e, p"
            + " WHERE (e.expires_at <= p.now OR e.instance_id <> p.instance OR e.ended_at IS NOT NULL) AND e.issued_at < p.before"
            + " AND (p.epochs IS NULL OR e.id IN (SELECT value FROM json_each(p.epochs)))"
            + " AND NOT EXISTS (SELECT 1 FROM operation o WHERE o.retry_epoch = e.id AND o.id NOT IN (SELECT id FROM purgeable_ops))),";

    /** Retired outcome_unknown receipts that only wait for the admin's finding ({@code ledger reconcile}). */
    private static final String AWAITING_FINDING =
            " awaiting(id) AS (SELECT o.id FROM operation o JOIN retry_epoch e ON e.id = o.retry_epoch, p"
                    + " WHERE o.state = 'outcome_unknown' AND o.resolution IS NULL"
                    + " AND (o.retain_until < p.now OR e.instance_id <> p.instance OR e.ended_at IS NOT NULL))";

    private static final String PREFIX = PARAMETERS + PURGEABLE_OPS + PURGEABLE_EPOCHS + AWAITING_FINDING;

    /** The parameters of one evaluation; {@code before} is exclusive, {@code exportHead} inclusive. */
    public record Scope(
            long now,
            String instance,
            long before,
            @Nullable String exportedOps,
            @Nullable String exportedEpochs,
            long exportHead) {

        /** Everything retired now, wherever it was exported (for counting). */
        public static Scope counting(long now, String instance) {
            return new Scope(now, instance, Long.MAX_VALUE, null, null, Long.MAX_VALUE);
        }

        Object[] args() {
            return new Object[] {now, instance, before, exportedOps, exportedEpochs, exportHead};
        }
    }

    private ReclaimSql() {}

    /** Counts: purgeable receipts, purgeable epochs, retired outcome_unknown receipts awaiting a finding. */
    public static long[] counts(Connection c, Scope scope) throws SQLException {
        String sql = PREFIX
                + " SELECT (SELECT count(*) FROM purgeable_ops), (SELECT count(*) FROM purgeable_epochs), (SELECT count(*) FROM awaiting)";
        try (PreparedStatement statement = Rows.prepare(c, sql, scope.args());
                ResultSet rs = statement.executeQuery()) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)};
        }
    }

    /**
     * Live connections of this run (epoch of this instance, not ended) that hold rows a purge must
     * keep, most rows first: what {@code session revoke} would free once their work is settled.
     */
    public static List<LedgerStatus.LiveHolder> liveHolders(Connection c, Scope scope) throws SQLException {
        String sql = PREFIX + " SELECT e.session_id, count(*),"
                + " (SELECT count(*) FROM operation o WHERE o.session_id = e.session_id AND o.id NOT IN (SELECT id FROM purgeable_ops)),"
                + " (SELECT count(*) FROM operation o WHERE o.session_id = e.session_id AND o.state IN ('queued', 'awaiting_user', 'running', 'cancelling'))"
                + " FROM retry_epoch e, p WHERE e.instance_id = p.instance AND e.ended_at IS NULL AND e.id NOT IN (SELECT id FROM purgeable_epochs)"
                + " GROUP BY e.session_id ORDER BY 3 DESC, e.session_id";
        List<LedgerStatus.LiveHolder> holders = new ArrayList<>();
        try (PreparedStatement statement = Rows.prepare(c, sql, scope.args());
                ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                holders.add(new LedgerStatus.LiveHolder(rs.getString(1), rs.getLong(3), rs.getLong(4), rs.getLong(2)));
            }
        }
        return holders;
    }

    /** Deletes the purgeable receipts with their history, then the purgeable epochs; answers {receipts, history rows, epochs}. */
    public static long[] delete(Connection c, Scope scope) throws SQLException {
        // the numbers of the history rows about to go stay handed out: new rows are numbered above them
        Rows.update(
                c,
                "INSERT INTO ledger_history_floor (id, seq) VALUES (1, coalesce((SELECT max(seq) FROM operation_history), 0))"
                        + " ON CONFLICT (id) DO UPDATE SET seq = max(seq, excluded.seq)");
        long history = Rows.update(
                c,
                PREFIX + " DELETE FROM operation_history WHERE operation_id IN (SELECT id FROM purgeable_ops)",
                scope.args());
        // epochs first: their rule looks at the receipts that are still there
        List<String> epochs = ids(c, PREFIX + " SELECT id FROM purgeable_epochs", scope);
        long operations = Rows.update(
                c, PREFIX + " DELETE FROM operation WHERE id IN (SELECT id FROM purgeable_ops)", scope.args());
        long deleted = 0;
        for (String epoch : epochs) {
            deleted += Rows.update(c, "DELETE FROM retry_epoch WHERE id = ?", epoch);
        }
        return new long[] {operations, history, deleted};
    }

    private static List<String> ids(Connection c, String sql, Scope scope) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement statement = Rows.prepare(c, sql, scope.args());
                ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
