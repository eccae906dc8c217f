package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.ledger.Reservation;
import dev.lomicontrol.ledger.ReserveRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The reserve rule of SPEC §6 for all the reservations of one writer batch at once (a
 * {@link Writer.Group}): the checks run in arrival order — epoch valid → key exists (same or
 * different fingerprint, also against the requests accepted just before it in the same group) → cap
 * → accept — and every accepted receipt is inserted with its history row. The outcomes are exactly
 * those of the requests reserved one after another; a refusal writes nothing. Per group, not per
 * request: one savepoint, one count of the receipts, one look-up of the next history number (each
 * accepted request then takes the next one).
 */
final class ReserveGroup implements Writer.Group<ReserveGroup.Item, Reservation> {

    /** One request with what the caller computed outside the writer: its fingerprint and canonical target. */
    record Item(ReserveRequest request, byte[] fingerprint, String target) {}

    /** The epoch's row and the fingerprint stored under the receipt key (NULL: none); parameters: the receipt key. */
    private static final String CHECKS = "SELECT e.session_id, e.instance_id, e.expires_at, e.ended_at,"
            + " (SELECT o.fingerprint FROM operation o WHERE o.session_id = ?1 AND o.retry_epoch = ?2 AND o.project_id = ?3"
            + " AND o.tool = ?4 AND o.request_key = ?5)";

    /** {@link #CHECKS} of a group's first request, also reading the receipt count and the next history number. */
    private static final String FIRST_CHECKS = CHECKS + ", (SELECT count(*) FROM operation), "
            + LedgerWrites.NEXT_HISTORY_SEQ + " FROM retry_epoch e WHERE e.id = ?2";

    private static final String INSERT_OPERATION =
            "INSERT INTO operation (id, session_id, retry_epoch, project_id, tool, request_key, fingerprint, workspace_id,"
                    + " target, state, effect_state, created_at, updated_at, retain_until)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', 'none', ?, ?, ?)";

    private static final String INSERT_HISTORY =
            "INSERT INTO operation_history (seq, operation_id, kind, state, effect_state, actor, note, at)"
                    + " VALUES (?, ?, 'state', 'queued', 'none', 'broker', NULL, ?)";

    private static final String LATER_CHECKS = CHECKS + " FROM retry_epoch e WHERE e.id = ?2";

    private final LedgerWrites writes;
    private final OperationIds ids;

    ReserveGroup(LedgerWrites writes, OperationIds ids) {
        this.writes = writes;
        this.ids = ids;
    }

    /** What the checks query found for one request. */
    private record Found(
            @Nullable String epochSession,
            @Nullable String epochInstance,
            long expiresAt,
            boolean ended,
            byte @Nullable [] fingerprint) {}

    @Override
    public List<Reservation> runAll(Connection c, List<Item> items) throws SQLException {
        long now = writes.now();
        long receipts = -1;
        long nextSeq = -1;
        List<Reservation> outcomes = new ArrayList<>(items.size());
        Map<String, Accepted> accepted = items.size() == 1 ? Map.of() : new HashMap<>();
        int inserted = 0;
        for (Item item : items) {
            ReserveRequest request = item.request();
            Found row;
            try (PreparedStatement statement =
                            Rows.prepare(c, receipts < 0 ? FIRST_CHECKS : LATER_CHECKS, receiptKeyValues(request));
                    ResultSet rs = statement.executeQuery()) {
                row = rs.next()
                        ? new Found(
                                rs.getString(1),
                                rs.getString(2),
                                rs.getLong(3),
                                rs.getObject(4) != null,
                                rs.getBytes(5))
                        : null;
                if (receipts < 0 && row != null) {
                    receipts = rs.getLong(6);
                    nextSeq = rs.getLong(7);
                }
            }
            Reservation outcome = check(c, item, row, now, receipts + inserted, accepted);
            if (outcome == null) {
                Accepted fresh = accept(item, Objects.requireNonNull(row).expiresAt(), now);
                insert(c, fresh, now, nextSeq + inserted);
                inserted++;
                if (items.size() > 1) {
                    accepted.put(receiptKey(request), fresh);
                }
                outcome = new Reservation.Reserved(fresh.operation());
            }
            outcomes.add(outcome);
        }
        if (inserted > 0) {
            writes.caps().receipts(receipts + inserted);
        }
        return outcomes;
    }

    /** A receipt this group writes. */
    private record Accepted(Item item, Operation operation) {}

    /** The refusal or duplicate for {@code item}, or null when it is to be reserved. */
    private @Nullable Reservation check(
            Connection c, Item item, @Nullable Found row, long now, long receipts, Map<String, Accepted> accepted)
            throws SQLException {
        ReserveRequest request = item.request();
        if (row == null || row.epochSession() == null || row.epochInstance() == null) {
            return new Reservation.Refused(
                    ErrorCode.RETRY_WINDOW_EXPIRED, LedgerWrites.notThisConnections(request.retryEpoch()));
        }
        Optional<String> epochProblem = writes.epochProblem(
                request.retryEpoch(),
                Optional.of(request.session()),
                row.epochSession(),
                row.epochInstance(),
                row.expiresAt(),
                row.ended(),
                now);
        if (epochProblem.isPresent()) {
            return new Reservation.Refused(ErrorCode.RETRY_WINDOW_EXPIRED, epochProblem.get());
        }
        Accepted earlier = accepted.get(receiptKey(request));
        byte[] existing = earlier != null ? earlier.item().fingerprint() : row.fingerprint();
        if (existing != null) {
            if (!Arrays.equals(existing, item.fingerprint())) {
                return new Reservation.Refused(
                        ErrorCode.IDEMPOTENCY_CONFLICT,
                        "requestKey " + request.requestKey() + " was already used for " + request.tool()
                                + " with different input or target; keep the original request or use a new key for new work");
            }
            return new Reservation.Duplicate(
                    earlier != null
                            ? earlier.operation()
                            : Rows.findOperation(c, LedgerWrites.RECEIPT_KEY, receiptKeyValues(request))
                                    .orElseThrow());
        }
        if (receipts >= writes.receiptCap()) {
            return new Reservation.Refused(ErrorCode.RESOURCE_EXHAUSTED, writes.receiptCapMessage(c, receipts, now));
        }
        return null;
    }

    private Accepted accept(Item item, long expiresAt, long now) {
        ReserveRequest request = item.request();
        OperationId id = ids.next(now);
        Instant created = Instant.ofEpochMilli(now);
        String workspace = request.target().workspaceId();
        return new Accepted(
                item,
                new Operation(
                        id,
                        request.session(),
                        request.retryEpoch(),
                        request.project(),
                        request.tool(),
                        request.requestKey(),
                        workspace == null || workspace.isEmpty() ? Optional.empty() : Optional.of(workspace),
                        OperationState.QUEUED,
                        EffectState.NONE,
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        created,
                        created,
                        Optional.empty(),
                        Instant.ofEpochMilli(expiresAt),
                        Optional.empty()));
    }

    private static void insert(Connection c, Accepted accepted, long now, long seq) throws SQLException {
        Operation operation = accepted.operation();
        ReserveRequest request = accepted.item().request();
        Rows.update(
                c,
                INSERT_OPERATION,
                operation.id().value(),
                request.session().value(),
                request.retryEpoch().value(),
                request.project().value(),
                request.tool().value(),
                request.requestKey().value(),
                accepted.item().fingerprint(),
                operation.workspaceId().orElse(null),
                accepted.item().target(),
                now,
                now,
                operation.retainUntil().toEpochMilli());
        Rows.update(c, INSERT_HISTORY, seq, operation.id().value(), now);
    }

    private static String receiptKey(ReserveRequest request) {
        return request.session().value()
                + '\n'
                + request.retryEpoch().value()
                + '\n'
                + request.project().value()
                + '\n'
                + request.tool().value()
                + '\n'
                + request.requestKey().value();
    }

    private static Object[] receiptKeyValues(ReserveRequest request) {
        return new Object[] {
            request.session().value(),
            request.retryEpoch().value(),
            request.project().value(),
            request.tool().value(),
            request.requestKey().value()
        };
    }
}
