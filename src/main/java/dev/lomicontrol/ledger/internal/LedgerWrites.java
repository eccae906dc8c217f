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
import dev.lomicontrol.ledger.OperationError;
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
    private final ReserveGroup reservations;

    public LedgerWrites(Clock clock, RandomGenerator random, LedgerProperties properties, InstanceId instance) {
        this.clock = clock;
        this.random = random;
        this.properties = properties;
        this.instance = instance;
        this.caps = new CapWatch(properties);
        this.reservations = new ReserveGroup(this, new OperationIds(random));
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

    /**
     * The reserve order of SPEC §6 (epoch valid → key exists → cap → insert) as a writer group: the
     * reservations of one batch are checked and inserted together ({@link ReserveGroup}).
     */
    public Writer.Group<ReserveGroup.Item, Reservation> reservations() {
        return reservations;
    }

    /** A reservation's work for {@link #reservations()}: the request with its fingerprint and canonical target. */
    public static ReserveGroup.Item reservation(ReserveRequest request, byte[] fingerprint, String target) {
        return new ReserveGroup.Item(request, fingerprint, target);
    }

    long now() {
        return clock.millis();
    }

    int receiptCap() {
        return properties.receiptCap();
    }

    /** The RESOURCE_EXHAUSTED message for new work at {@code receipts} receipts. */
    String receiptCapMessage(Connection c, long receipts, long now) throws SQLException {
        return CapRefusals.message(
                c,
                ReclaimSql.Scope.counting(now, instance.value()),
                "receipts",
                receipts,
                properties.receiptCap(),
                "new work");
    }

    static final String RECEIPT_KEY =
            "WHERE session_id = ? AND retry_epoch = ? AND project_id = ? AND tool = ? AND request_key = ?";

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
            Optional<OperationError> error,
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
                        + " error_message = coalesce(?, error_message), updated_at = ?, completed_at = ?, retain_until = max(retain_until, ?) WHERE id = ?",
                to.wire(),
                effect.wire(),
                result.orElse(null),
                error.map(e -> e.code().name()).orElse(null),
                error.map(OperationError::message).orElse(null),
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
            if (!rs.next()) {
                return Optional.of(notThisConnections(epoch));
            }
            return epochProblem(
                    epoch,
                    session,
                    rs.getString(1),
                    rs.getString(2),
                    rs.getLong(3),
                    rs.getObject(4) != null,
                    clock.millis());
        }
    }

    /** The rule of {@link #epochProblem(Connection, RetryEpochId, Optional)} on the epoch's row as read. */
    Optional<String> epochProblem(
            RetryEpochId epoch,
            Optional<SessionId> session,
            String sessionOf,
            String instanceOf,
            long expiresAt,
            boolean ended,
            long now) {
        if (session.isPresent() && !session.get().value().equals(sessionOf)) {
            return Optional.of(notThisConnections(epoch));
        }
        if (!instance.value().equals(instanceOf)) {
            return Optional.of(
                    "retryEpoch " + epoch + " belongs to an earlier broker run; call lomi_connect for a fresh one");
        }
        if (ended) {
            return Optional.of("retryEpoch " + epoch
                    + " belongs to a connection that has ended; call lomi_connect for a fresh one");
        }
        if (expiresAt <= now) {
            return Optional.of("retryEpoch " + epoch + " has expired; call lomi_connect for a fresh one");
        }
        return Optional.empty();
    }

    static String notThisConnections(RetryEpochId epoch) {
        return "retryEpoch " + epoch + " is not this connection's; call lomi_connect for a fresh one";
    }

    /**
     * The next history sequence number: above every row there is and above the floor the purge
     * raises before it deletes rows (V11), so a number is never handed out twice.
     */
    static final String NEXT_HISTORY_SEQ = "max(coalesce((SELECT max(seq) FROM operation_history), 0),"
            + " coalesce((SELECT seq FROM ledger_history_floor WHERE id = 1), 0)) + 1";

    /** Appends a history row (the event feed), numbered by {@link #NEXT_HISTORY_SEQ}. */
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
                "INSERT INTO operation_history (seq, operation_id, kind, state, effect_state, actor, note, at) VALUES ("
                        + NEXT_HISTORY_SEQ + ", ?, ?, ?, ?, ?, ?, ?)",
                id.value(),
                kind,
                state.wire(),
                effect.wire(),
                actor,
                note,
                at);
    }
}
