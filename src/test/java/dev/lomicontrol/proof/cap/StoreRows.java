package dev.lomicontrol.proof.cap;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sqlite.SQLiteConfig;

/**
 * Whole rows of a ledger file (the broker's live store beside the running broker, or an export),
 * read through a separate read-only SQLite connection: every column, blobs as hex, so a purged
 * receipt and its history can be compared with the export row by row.
 */
final class StoreRows {

    private StoreRows() {}

    /** The broker's store under a data directory. */
    static Path store(Path data) {
        return data.resolve("agent-control").resolve("control.sqlite3");
    }

    /** Every row of {@code sql} as column → value (text), in the query's order. */
    static List<Map<String, String>> rows(Path db, String sql) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(10_000);
        try (Connection c = config.createConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            List<Map<String, String>> out = new ArrayList<>();
            while (rs.next()) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    Object value = rs.getObject(i);
                    row.put(
                            meta.getColumnName(i),
                            value instanceof byte[] ? HexFormat.of().formatHex((byte[]) value) : String.valueOf(value));
                }
                out.add(row);
            }
            return out;
        }
    }

    /** Receipts by id, all columns. */
    static Map<String, Map<String, String>> operations(Path db) throws SQLException {
        Map<String, Map<String, String>> byId = new LinkedHashMap<>();
        for (Map<String, String> row : rows(db, "SELECT * FROM operation ORDER BY created_at, id")) {
            byId.put(row.get("id"), row);
        }
        return byId;
    }

    /** History rows per receipt id, oldest first, all columns. */
    static Map<String, List<Map<String, String>>> history(Path db) throws SQLException {
        Map<String, List<Map<String, String>>> byOperation = new LinkedHashMap<>();
        for (Map<String, String> row : rows(db, "SELECT * FROM operation_history ORDER BY seq")) {
            byOperation
                    .computeIfAbsent(row.get("operation_id"), k -> new ArrayList<>())
                    .add(row);
        }
        return byOperation;
    }

    static long count(Path db, String sql) throws SQLException {
        return Long.parseLong(rows(db, sql).get(0).values().iterator().next());
    }
}
