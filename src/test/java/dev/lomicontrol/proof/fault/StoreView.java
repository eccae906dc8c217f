package dev.lomicontrol.proof.fault;

import dev.lomicontrol.testing.Files2;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.sqlite.SQLiteConfig;

/**
 * The judge's view of a store: receipts read through a separate read-only SQLite connection beside
 * a <em>running</em> broker (never while it is stopped: SQLite would create {@code -wal}/{@code -shm}
 * files and spoil the byte-for-byte comparison), and SHA-256 fingerprints of the store's files.
 */
final class StoreView {

    static final String DATABASE = "control.sqlite3";

    private StoreView() {}

    static Path store(Path data) {
        return data.resolve("agent-control");
    }

    /** requestKey → "state/effect" of every receipt whose key starts with {@code prefix}, oldest first. */
    static Map<String, String> receipts(Path data, String prefix) throws SQLException {
        Map<String, String> rows = new LinkedHashMap<>();
        try (Connection c = readOnly(data);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(
                        "SELECT request_key, state, effect_state FROM operation ORDER BY created_at, id")) {
            while (rs.next()) {
                if (rs.getString(1) != null && rs.getString(1).startsWith(prefix)) {
                    rows.put(rs.getString(1), rs.getString(2) + "/" + rs.getString(3));
                }
            }
        }
        return rows;
    }

    /** The page size and the root page of the {@code operation} table (the receipts' B-tree). */
    static long[] receiptTablePage(Path data) throws SQLException {
        try (Connection c = readOnly(data);
                Statement s = c.createStatement()) {
            long pageSize;
            try (ResultSet rs = s.executeQuery("PRAGMA page_size")) {
                pageSize = rs.getLong(1);
            }
            try (ResultSet rs =
                    s.executeQuery("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'operation'")) {
                return new long[] {pageSize, rs.getLong(1)};
            }
        }
    }

    /** SHA-256 of every {@code control.sqlite3*} file of the store. */
    static Map<String, String> fingerprints(Path store) {
        return Files2.hashes(store, DATABASE);
    }

    private static Connection readOnly(Path data) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(10_000);
        return config.createConnection("jdbc:sqlite:" + store(data).resolve(DATABASE));
    }
}
