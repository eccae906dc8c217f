package dev.lomicontrol.ledger;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.testing.MutableClock;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Opens real ledgers on real SQLite files in a temp directory, with a clock the test controls. */
final class LedgerFixture {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final ProjectId PROJECT = new ProjectId("project-1");
    static final ToolName TOOL = new ToolName("lomi_files_mutate");

    final Path store;
    final MutableClock clock = MutableClock.startingAt("2026-11-30T10:00:00Z");
    final SecureRandom random = new SecureRandom();

    LedgerFixture(Path tempDir) {
        this.store = tempDir.resolve("agent-control");
    }

    Ledger open() {
        return open(LedgerProperties.defaults());
    }

    Ledger open(LedgerProperties properties) {
        return Ledger.open(store, properties, clock, random);
    }

    SessionId session() {
        return SessionId.random(random);
    }

    static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    static ReserveRequest request(SessionId session, RetryEpoch epoch, String key, String input) {
        return new ReserveRequest(
                session,
                epoch.id(),
                PROJECT,
                TOOL,
                new RequestKey(key),
                json(input),
                new Target("ws-1", "file:a.txt", "", "rev-1"));
    }

    static Operation reserved(Reservation reservation) {
        if (reservation instanceof Reservation.Reserved) {
            return ((Reservation.Reserved) reservation).operation();
        }
        throw new AssertionError("expected Reserved, got " + reservation);
    }

    static Operation moved(TransitionResult result) {
        if (result instanceof TransitionResult.Moved) {
            return ((TransitionResult.Moved) result).operation();
        }
        throw new AssertionError("expected Moved, got " + result);
    }

    /** Runs a reserved operation to succeeded with its whole effect: queued, running, succeeded. */
    static Operation succeeded(Ledger ledger, Operation queued) {
        moved(ledger.begin(queued.id()));
        return moved(ledger.transition(
                queued.id(), OperationState.SUCCEEDED, EffectState.COMPLETE, Optional.empty(), Optional.empty()));
    }

    /** Reserves {@code key} for {@code who} and runs it to succeeded. */
    static Operation succeeded(Ledger ledger, SessionId who, RetryEpoch window, String key) {
        return succeeded(ledger, reserved(ledger.reserve(request(who, window, key, "{}"))));
    }

    static Optional<OperationId> idOf(Reservation reservation) {
        if (reservation instanceof Reservation.Reserved) {
            return Optional.of(((Reservation.Reserved) reservation).operation().id());
        }
        if (reservation instanceof Reservation.Duplicate) {
            return Optional.of(((Reservation.Duplicate) reservation).operation().id());
        }
        return Optional.empty();
    }
}
