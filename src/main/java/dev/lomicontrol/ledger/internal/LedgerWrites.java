package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.InstanceId;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.ledger.CancelResult;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.LedgerProperties;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.ledger.Reservation;
import dev.lomicontrol.ledger.ReserveRequest;
import dev.lomicontrol.ledger.RetryEpoch;
import dev.lomicontrol.ledger.TransitionResult;
import dev.lomicontrol.ledger.Transitions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * The ledger's write-side rules, each run inside the writer's transaction (so every check and the
 * write it guards see one consistent state). Refusals write nothing.
 */
public final class LedgerWrites {

    private static final String NON_TERMINAL = "('queued', 'awaiting_user', 'running', 'cancelling')";

    private final Clock clock;
    private final RandomGenerator random;
    private final LedgerProperties properties;
    private final InstanceId instance;
    private final CapWatch caps;

    public LedgerWrites(Clock clock, RandomGenerator random, LedgerProperties properties, InstanceId instance) {
        this.clock = clock;
        this.random = random;
        this.properties = properties;
        this.instance = instance;
        this.caps = new CapWatch(properties);
    }

    /** The counts against the caps as last written (cheap; see {@link CapWatch}). */
    public CapWatch caps() {
        return caps;
    }

    /** Counts both caps again after a purge deleted rows. */
    public void recount(Connection c) throws SQLException {
        caps.purged(Rows.count(c, "SELECT count(*) FROM operation"), Rows.count(c, "SELECT count(*) FROM retry_epoch"));
    }

    /** Records this broker run and turns every non-terminal row into outcome_unknown/unknown; never replays. */
    public int recover(Connection c) throws SQLException {
        long now = clock.millis();
        Rows.update(
                c,
                "INSERT INTO ledger_instance (id, opened_at, pid) VALUES (?, ?, ?)",
                instance.value(),
                now,
                ProcessHandle.current().pid());
        List<Operation> open = Rows.operations(c, "WHERE state IN " + NON_TERMINAL);
        long retain = now + properties.epochLifetime().toMillis();
        for (Operation operation : open) {
            Rows.update(
                    c,
                    "UPDATE operation SET state = 'outcome_unknown', effect_state = 'unknown', updated_at = ?, completed_at = ?,"
                            + " retain_until = max(retain_until, ?) WHERE id = ?",
                    now,
                    now,
                    retain,
                    operation.id().value());
            history(
                    c,
                    operation.id(),
                    "state",
                    OperationState.OUTCOME_UNKNOWN,
                    EffectState.UNKNOWN,
                    "recovery",
                    "broker restarted while " + operation.state().wire() + "; never replayed",
                    now);
        }
        caps.opened(Rows.count(c, "SELECT count(*) FROM operation"), Rows.count(c, "SELECT count(*) FROM retry_epoch"));
        return open.size();
    }

    public RetryEpoch issueEpoch(Connection c, SessionId session) throws SQLException {
        long epochs = Rows.count(c, "SELECT count(*) FROM retry_epoch");
        if (epochs >= properties.epochCap()) {
            throw new LomiException(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    CapRefusals.message(
                            c,
                            ReclaimSql.Scope.counting(clock.millis(), instance.value()),
                            "retry epochs",
                            epochs,
                            properties.epochCap(),
                            "a new connection's retry epoch (lomi_connect)"));
        }
        Instant now = clock.instant();
        RetryEpoch epoch = new RetryEpoch(
                RetryEpochId.random(random), session, instance, now, now.plus(properties.epochLifetime()));
        // a session whose end was already recorded (a connect that raced its revocation) gets an epoch that is ended
        // too
        Rows.update(
                c,
                "INSERT INTO retry_epoch (id, session_id, instance_id, issued_at, expires_at, ended_at) VALUES (?, ?, ?, ?, ?,"
                        + " (SELECT max(ended_at) FROM retry_epoch WHERE session_id = ?))",
                epoch.id().value(),
                session.value(),
                instance.value(),
                now.toEpochMilli(),
                epoch.expiresAt().toEpochMilli(),
                session.value());
        caps.epochs(epochs + 1);
        return epoch;
    }

    /** The reserve order of SPEC §6: epoch valid → key exists (same/different fingerprint) → cap → insert. */
    public Reservation reserve(Connection c, ReserveRequest request, byte[] fingerprint, String target)
            throws SQLException {
        Optional<String> epochProblem = epochProblem(c, request.retryEpoch(), Optional.of(request.session()));
        if (epochProblem.isPresent()) {
            return new Reservation.Refused(ErrorCode.RETRY_WINDOW_EXPIRED, epochProblem.get());
        }
        Object[] key = {
            request.session().value(),
            request.retryEpoch().value(),
            request.project().value(),
            request.tool().value(),
            request.requestKey().value()
        };
        String where = "WHERE session_id = ? AND retry_epoch = ? AND project_id = ? AND tool = ? AND request_key = ?";
        Optional<byte[]> existing = fingerprint(c, where, key);
        if (existing.isPresent()) {
            if (!Arrays.equals(existing.get(), fingerprint)) {
                return new Reservation.Refused(
                        ErrorCode.IDEMPOTENCY_CONFLICT,
                        "requestKey " + request.requestKey() + " was already used for " + request.tool()
                                + " with different input or target; keep the original request or use a new key for new work");
            }
            return new Reservation.Duplicate(Rows.findOperation(c, where, key).orElseThrow());
        }
        long receipts = Rows.count(c, "SELECT count(*) FROM operation");
        if (receipts >= properties.receiptCap()) {
            return new Reservation.Refused(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    CapRefusals.message(
                            c,
                            ReclaimSql.Scope.counting(clock.millis(), instance.value()),
                            "receipts",
                            receipts,
                            properties.receiptCap(),
                            "new work"));
        }
        long now = clock.millis();
        long retain = epochExpiry(c, request.retryEpoch());
        OperationId id = OperationId.random(random);
        Rows.update(
                c,
                "INSERT INTO operation (id, session_id, retry_epoch, project_id, tool, request_key, fingerprint, workspace_id, target,"
                        + " state, effect_state, created_at, updated_at, retain_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', 'none', ?, ?, ?)",
                id.value(),
                key[0],
                key[1],
                key[2],
                key[3],
                key[4],
                fingerprint,
                emptyToNull(request.target().workspaceId()),
                target,
                now,
                now,
                retain);
        history(c, id, "state", OperationState.QUEUED, EffectState.NONE, "broker", null, now);
        caps.receipts(receipts + 1);
        Instant created = Instant.ofEpochMilli(now);
        return new Reservation.Reserved(new Operation(
                id,
                request.session(),
                request.retryEpoch(),
                request.project(),
                request.tool(),
                request.requestKey(),
                Optional.ofNullable(emptyToNull(request.target().workspaceId())),
                OperationState.QUEUED,
                EffectState.NONE,
                Optional.empty(),
                Optional.empty(),
                created,
                created,
                Optional.empty(),
                Instant.ofEpochMilli(retain),
                Optional.empty()));
    }

    /**
     * Moves an operation along an allowed edge. Entering running rechecks the retry epoch for this
     * broker instance. A result is written once; a terminal state sets {@code completed_at} and
     * keeps the row at least one epoch lifetime longer.
     */
    public TransitionResult transition(
            Connection c,
            OperationId id,
            OperationState to,
            EffectState effect,
            Optional<String> result,
            Optional<ErrorCode> error,
            String actor,
            @Nullable String note)
            throws SQLException {
        Operation current = Rows.findOperation(c, "WHERE id = ?", id.value())
                .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no operation " + id));
        Optional<String> refusal = Transitions.check(current.state(), current.effect(), to, effect);
        if (refusal.isPresent()) {
            return new TransitionResult.Refused(ErrorCode.INVALID_ARGUMENT, refusal.get(), current);
        }
        if (to == OperationState.RUNNING) {
            Optional<String> epochProblem = epochProblem(c, current.retryEpoch(), Optional.empty());
            if (epochProblem.isPresent()) {
                return new TransitionResult.Refused(ErrorCode.RETRY_WINDOW_EXPIRED, epochProblem.get(), current);
            }
        }
        if (result.isPresent()
                && current.result().isPresent()
                && !current.result().equals(result)) {
            return new TransitionResult.Refused(
                    ErrorCode.INVALID_ARGUMENT, "the result of " + id + " was already recorded", current);
        }
        long now = clock.millis();
        boolean terminal = to.isTerminal();
        Rows.update(
                c,
                "UPDATE operation SET state = ?, effect_state = ?, result = coalesce(?, result), error_code = coalesce(?, error_code),"
                        + " updated_at = ?, completed_at = ?, retain_until = max(retain_until, ?) WHERE id = ?",
                to.wire(),
                effect.wire(),
                result.orElse(null),
                error.map(Enum::name).orElse(null),
                now,
                terminal ? now : null,
                terminal ? now + properties.epochLifetime().toMillis() : 0L,
                id.value());
        history(c, id, "state", to, effect, actor, note, now);
        return new TransitionResult.Moved(
                Rows.findOperation(c, "WHERE id = ?", id.value()).orElseThrow());
    }

    public CancelResult cancel(Connection c, SessionId session, OperationId id) throws SQLException {
        Operation current = Rows.findOperation(c, "WHERE id = ? AND session_id = ?", id.value(), session.value())
                .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no operation " + id));
        switch (current.state()) {
            case QUEUED:
            case AWAITING_USER:
                return new CancelResult.Cancelled(moved(transition(
                        c,
                        id,
                        OperationState.CANCELLED,
                        EffectState.NONE,
                        Optional.empty(),
                        Optional.empty(),
                        "broker",
                        "cancelled before dispatch")));
            case RUNNING:
                return new CancelResult.StopRequested(moved(transition(
                        c,
                        id,
                        OperationState.CANCELLING,
                        current.effect(),
                        Optional.empty(),
                        Optional.empty(),
                        "broker",
                        "cancel requested")));
            default:
                return new CancelResult.Unchanged(current);
        }
    }

    /**
     * Settles the work of a session whose connection ended (revocation, disconnect, shutdown):
     * dispatched work becomes outcome_unknown/unknown, undispatched work cancelled/none, and its
     * retry epochs are marked ended — they can never be used again, so their settled receipts only
     * serve as history and become purgeable (after a fresh export).
     */
    public List<Operation> settleLost(Connection c, SessionId session, String reason) throws SQLException {
        endEpochs(c, session);
        List<Operation> settled = new ArrayList<>();
        for (Operation operation :
                Rows.operations(c, "WHERE session_id = ? AND state IN " + NON_TERMINAL, session.value())) {
            settled.add(settleOne(c, operation, reason));
        }
        return settled;
    }

    /** Marks the session's retry epochs ended: its connection is gone, they can never be used again. */
    public int endEpochs(Connection c, SessionId session) throws SQLException {
        return Rows.update(
                c,
                "UPDATE retry_epoch SET ended_at = ? WHERE session_id = ? AND ended_at IS NULL",
                clock.millis(),
                session.value());
    }

    public Operation settleLost(Connection c, OperationId id, String reason) throws SQLException {
        Operation operation = Rows.findOperation(c, "WHERE id = ?", id.value())
                .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no operation " + id));
        return operation.state().isTerminal() ? operation : settleOne(c, operation, reason);
    }

    private Operation settleOne(Connection c, Operation operation, String reason) throws SQLException {
        boolean dispatched = operation.state().isDispatched();
        OperationState to = dispatched ? OperationState.OUTCOME_UNKNOWN : OperationState.CANCELLED;
        EffectState effect = dispatched ? EffectState.UNKNOWN : EffectState.NONE;
        return moved(transition(c, operation.id(), to, effect, Optional.empty(), Optional.empty(), "broker", reason));
    }

    private static Operation moved(TransitionResult result) {
        if (result instanceof TransitionResult.Moved) {
            return ((TransitionResult.Moved) result).operation();
        }
        TransitionResult.Refused refused = (TransitionResult.Refused) result;
        throw new IllegalStateException("internal transition refused: " + refused.message());
    }

    /** Why {@code epoch} cannot be used (by {@code session}, when given) now: the RETRY_WINDOW_EXPIRED message; empty when it can. */
    public Optional<String> epochProblem(Connection c, RetryEpochId epoch, Optional<SessionId> session)
            throws SQLException {
        try (PreparedStatement statement = Rows.prepare(
                        c,
                        "SELECT session_id, instance_id, expires_at, ended_at FROM retry_epoch WHERE id = ?",
                        epoch.value());
                ResultSet rs = statement.executeQuery()) {
            if (!rs.next() || (session.isPresent() && !session.get().value().equals(rs.getString(1)))) {
                return Optional.of(
                        "retryEpoch " + epoch + " is not this connection's; call lomi_connect for a fresh one");
            }
            if (!instance.value().equals(rs.getString(2))) {
                return Optional.of(
                        "retryEpoch " + epoch + " belongs to an earlier broker run; call lomi_connect for a fresh one");
            }
            rs.getLong(4);
            if (!rs.wasNull()) {
                return Optional.of("retryEpoch " + epoch
                        + " belongs to a connection that has ended; call lomi_connect for a fresh one");
            }
            if (rs.getLong(3) <= clock.millis()) {
                return Optional.of("retryEpoch " + epoch + " has expired; call lomi_connect for a fresh one");
            }
            return Optional.empty();
        }
    }

    private static long epochExpiry(Connection c, RetryEpochId epoch) throws SQLException {
        return Rows.count(c, "SELECT expires_at FROM retry_epoch WHERE id = ?", epoch.value());
    }

    private static Optional<byte[]> fingerprint(Connection c, String where, Object[] key) throws SQLException {
        try (PreparedStatement statement = Rows.prepare(c, "SELECT fingerprint FROM operation " + where, key);
                ResultSet rs = statement.executeQuery()) {
            return rs.next() ? Optional.of(rs.getBytes(1)) : Optional.empty();
        }
    }

    static void history(
            Connection c,
            OperationId id,
            String kind,
            OperationState state,
            EffectState effect,
            String actor,
            @Nullable String note,
            long at)
            throws SQLException {
        Rows.update(
                c,
                "INSERT INTO operation_history (operation_id, kind, state, effect_state, actor, note, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                id.value(),
                kind,
                state.wire(),
                effect.wire(),
                actor,
                note,
                at);
    }

    private static @Nullable String emptyToNull(@Nullable String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
