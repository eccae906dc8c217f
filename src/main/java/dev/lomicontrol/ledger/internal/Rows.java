package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.LedgerEvent;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** Row mapping and small JDBC helpers shared by the ledger's reads and writes. */
final class Rows {

    static final String OPERATION_COLUMNS =
            "id, session_id, retry_epoch, project_id, tool, request_key, workspace_id, state, effect_state,"
                    + " result, error_code, error_message, created_at, updated_at, completed_at, retain_until, resolution, resolution_note, resolved_at";

    static final String EVENT_SELECT =
            "SELECT h.seq, h.kind, h.operation_id, o.tool, o.workspace_id, h.state, h.effect_state, h.actor,"
                    + " h.note, h.at FROM operation_history h JOIN operation o ON o.id = h.operation_id";

    private Rows() {}

    static Operation operation(ResultSet rs) throws SQLException {
        Optional<String> resolution = Optional.ofNullable(rs.getString("resolution"));
        return new Operation(
                new OperationId(rs.getString("id")),
                new SessionId(rs.getString("session_id")),
                new RetryEpochId(rs.getString("retry_epoch")),
                new ProjectId(rs.getString("project_id")),
                new ToolName(rs.getString("tool")),
                new RequestKey(rs.getString("request_key")),
                Optional.ofNullable(rs.getString("workspace_id")),
                OperationState.fromWire(rs.getString("state")),
                EffectState.fromWire(rs.getString("effect_state")),
                Optional.ofNullable(rs.getString("result")),
                Optional.ofNullable(rs.getString("error_code")),
                Optional.ofNullable(rs.getString("error_message")),
                instant(rs, "created_at").orElseThrow(),
                instant(rs, "updated_at").orElseThrow(),
                instant(rs, "completed_at"),
                instant(rs, "retain_until").orElseThrow(),
                resolution.map(finding -> new Operation.Resolution(
                        OperationState.fromWire(finding),
                        nullToEmpty(rs, "resolution_note"),
                        instantOrEpoch(rs, "resolved_at"))));
    }

    static LedgerEvent event(ResultSet rs) throws SQLException {
        return new LedgerEvent(
                rs.getLong("seq"),
                rs.getString("kind"),
                new OperationId(rs.getString("operation_id")),
                rs.getString("tool"),
                Optional.ofNullable(rs.getString("workspace_id")),
                OperationState.fromWire(rs.getString("state")),
                EffectState.fromWire(rs.getString("effect_state")),
                rs.getString("actor"),
                Optional.ofNullable(rs.getString("note")),
                Instant.ofEpochMilli(rs.getLong("at")));
    }

    static Optional<Operation> findOperation(Connection c, String where, @Nullable Object... args) throws SQLException {
        List<Operation> found = operations(c, where, args);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    static List<Operation> operations(Connection c, String where, @Nullable Object... args) throws SQLException {
        try (PreparedStatement statement =
                        prepare(c, "SELECT " + OPERATION_COLUMNS + " FROM operation " + where, args);
                ResultSet rs = statement.executeQuery()) {
            List<Operation> out = new ArrayList<>();
            while (rs.next()) {
                out.add(operation(rs));
            }
            return out;
        }
    }

    static long count(Connection c, String sql, @Nullable Object... args) throws SQLException {
        try (PreparedStatement statement = prepare(c, sql, args);
                ResultSet rs = statement.executeQuery()) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    static int update(Connection c, String sql, @Nullable Object... args) throws SQLException {
        try (PreparedStatement statement = prepare(c, sql, args)) {
            return statement.executeUpdate();
        }
    }

    static PreparedStatement prepare(Connection c, String sql, @Nullable Object... args) throws SQLException {
        PreparedStatement statement = c.prepareStatement(sql);
        for (int i = 0; i < args.length; i++) {
            statement.setObject(i + 1, args[i]);
        }
        return statement;
    }

    private static Optional<Instant> instant(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(value));
    }

    private static Instant instantOrEpoch(ResultSet rs, String column) {
        try {
            return instant(rs, column).orElse(Instant.EPOCH);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String nullToEmpty(ResultSet rs, String column) {
        try {
            String value = rs.getString(column);
            return value == null ? "" : value;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
