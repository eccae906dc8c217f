package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.ledger.LedgerEvent;
import dev.lomicontrol.ledger.Operation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** Read-side queries, run on reader connections. Receipts are visible only to their own session. */
public final class LedgerReads {

    private LedgerReads() {}

    public static Optional<Operation> get(Connection c, SessionId session, OperationId id) throws SQLException {
        return Rows.findOperation(c, "WHERE id = ? AND session_id = ?", id.value(), session.value());
    }

    /**
     * Reads by receipt key. Without a project the key must be unambiguous across the session's
     * projects, otherwise INVALID_ARGUMENT asks for the projectId.
     */
    public static Optional<Operation> getByKey(
            Connection c,
            SessionId session,
            RetryEpochId epoch,
            ToolName tool,
            RequestKey key,
            Optional<ProjectId> project)
            throws SQLException {
        String where = "WHERE session_id = ? AND retry_epoch = ? AND tool = ? AND request_key = ?";
        List<Operation> found = project.isPresent()
                ? Rows.operations(
                        c,
                        where + " AND project_id = ?",
                        session.value(),
                        epoch.value(),
                        tool.value(),
                        key.value(),
                        project.get().value())
                : Rows.operations(c, where, session.value(), epoch.value(), tool.value(), key.value());
        if (found.size() > 1) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "requestKey " + key + " exists in several projects; pass projectId");
        }
        return found.stream().findFirst();
    }

    public static List<LedgerEvent> eventsOf(Connection c, OperationId id) throws SQLException {
        return events(c, " WHERE h.operation_id = ? ORDER BY h.seq", id.value());
    }

    /** Events after {@code afterSequence}, oldest first, optionally within one workspace. */
    public static List<LedgerEvent> events(Connection c, Optional<String> workspaceId, long afterSequence, int limit)
            throws SQLException {
        if (workspaceId.isPresent()) {
            return events(
                    c,
                    " WHERE h.seq > ? AND o.workspace_id = ? ORDER BY h.seq LIMIT ?",
                    afterSequence,
                    workspaceId.get(),
                    limit);
        }
        return events(c, " WHERE h.seq > ? ORDER BY h.seq LIMIT ?", afterSequence, limit);
    }

    public static long historyHead(Connection c) throws SQLException {
        return Rows.count(c, "SELECT coalesce(max(seq), 0) FROM operation_history");
    }

    public static List<Operation> list(Connection c, Optional<String> state, int limit) throws SQLException {
        if (state.isPresent()) {
            return Rows.operations(c, "WHERE state = ? ORDER BY created_at, id LIMIT ?", state.get(), limit);
        }
        return Rows.operations(c, "ORDER BY created_at, id LIMIT ?", limit);
    }

    private static List<LedgerEvent> events(Connection c, String where, @Nullable Object... args) throws SQLException {
        try (PreparedStatement statement = Rows.prepare(c, Rows.EVENT_SELECT + where, args);
                ResultSet rs = statement.executeQuery()) {
            List<LedgerEvent> out = new ArrayList<>();
            while (rs.next()) {
                out.add(Rows.event(rs));
            }
            return out;
        }
    }
}
