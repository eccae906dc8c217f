package dev.lomicontrol.proof.crash;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.SQLiteConfig;

/**
 * The broker's receipts as they are on disk, read through a separate read-only SQLite connection
 * while the restarted broker runs (WAL lets a reader in beside the writer). This is the judge's
 * view, not the client's: after a restart the client may no longer read its old receipts. Also the
 * judge of the Android input crash round ({@code android.AndroidInputCrashProcessTests}).
 */
public final class LedgerRows {

    /** One receipt row. */
    public record Row(
            String operationId,
            String sessionId,
            String retryEpoch,
            String tool,
            String requestKey,
            String state,
            String effect,
            String errorCode) {

        public boolean settled() {
            return List.of("succeeded", "failed", "cancelled", "outcome_unknown")
                    .contains(state);
        }
    }

    private LedgerRows() {}

    /** Every receipt of the store under {@code data}, oldest first. */
    public static List<Row> read(Path data) throws SQLException {
        return readFile(data.resolve("agent-control").resolve("control.sqlite3"));
    }

    /** Every receipt of a ledger file (the live store or an export), oldest first. */
    static List<Row> readFile(Path db) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(10_000);
        try (Connection c = config.createConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(
                        "SELECT id, session_id, retry_epoch, tool, request_key, state, effect_state, error_code"
                                + " FROM operation ORDER BY created_at, id")) {
            List<Row> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(new Row(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getString(6),
                        rs.getString(7),
                        rs.getString(8)));
            }
            return rows;
        }
    }
}
