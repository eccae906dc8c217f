package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.ExportResult;
import dev.lomicontrol.ledger.LedgerStatus;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** SQL used by the admin's maintenance of the ledger. */
public final class MaintenanceSql {

    private MaintenanceSql() {}

    public static long count(Connection c, String sql, @Nullable Object... args) throws SQLException {
        return Rows.count(c, sql, args);
    }

    public static long update(Connection c, String sql, @Nullable Object... args) throws SQLException {
        return Rows.update(c, sql, args);
    }

    public static Optional<Operation> operation(Connection c, OperationId id) throws SQLException {
        return Rows.findOperation(c, "WHERE id = ?", id.value());
    }

    /** Appends the admin's reconciliation as its own history entry (the state stays outcome_unknown). */
    public static void history(Connection c, OperationId id, String note, long at) throws SQLException {
        LedgerWrites.history(
                c, id, "reconciled", OperationState.OUTCOME_UNKNOWN, EffectState.UNKNOWN, "admin", note, at);
    }

    public static Optional<LedgerStatus.LastExport> lastExport(Connection c) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(
                        "SELECT path, sha256, history_head, at FROM ledger_export ORDER BY id DESC LIMIT 1");
                ResultSet rs = statement.executeQuery()) {
            if (!rs.next()) {
                return Optional.empty();
            }
            return Optional.of(new LedgerStatus.LastExport(
                    rs.getString(1), rs.getString(2), rs.getLong(3), Instant.ofEpochMilli(rs.getLong(4))));
        }
    }

    /** The first column of every row of {@code sql} as a JSON array of strings (ids are plain tokens). */
    public static String idsAsJson(Connection c, String sql) throws SQLException {
        StringBuilder json = new StringBuilder("[");
        try (PreparedStatement statement = c.prepareStatement(sql);
                ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                json.append(json.length() == 1 ? "" : ",")
                        .append('"')
                        .append(rs.getString(1).replace("\\", "\\\\").replace("\"", "\\\""))
                        .append('"');
            }
        }
        return json.append(']').toString();
    }

    public static Void insertExport(Connection c, ExportResult export, long at) throws SQLException {
        Rows.update(
                c,
                "INSERT INTO ledger_export (path, sha256, history_head, operations, at) VALUES (?, ?, ?, ?, ?)",
                export.file().toString(),
                export.sha256(),
                export.historyHead(),
                export.operations(),
                at);
        return null;
    }
}
