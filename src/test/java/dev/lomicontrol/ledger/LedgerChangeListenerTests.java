package dev.lomicontrol.ledger;

import static dev.lomicontrol.ledger.LedgerFixture.moved;
import static dev.lomicontrol.ledger.LedgerFixture.request;
import static dev.lomicontrol.ledger.LedgerFixture.reserved;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.SessionId;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ledger tells its change listeners (what wakes waiting calls, issue 20) about every change of
 * an operation, on the thread that committed it (the writer, or a caller writing alone), only after the change committed — the row is already what a
 * reader sees — and never about a refused change.
 */
class LedgerChangeListenerTests {

    @TempDir
    Path temp;

    Ledger ledger;
    SessionId session;
    RetryEpoch epoch;
    final List<String> told = new CopyOnWriteArrayList<>();
    final List<String> threads = new CopyOnWriteArrayList<>();

    @BeforeEach
    void open() {
        LedgerFixture fixture = new LedgerFixture(temp);
        ledger = fixture.open();
        session = fixture.session();
        epoch = ledger.issueEpoch(session);
        ledger.onChange(operation -> {
            // committed already: a reader connection sees exactly the state the listener is told
            Operation seen = ledger.get(operation.session(), operation.id()).orElseThrow();
            told.add(operation.state().wire()
                    + (seen.state() == operation.state()
                            ? ""
                            : " (not yet visible: " + seen.state().wire() + ")"));
            threads.add(Thread.currentThread().getName());
        });
    }

    @AfterEach
    void close() {
        ledger.close();
    }

    @Test
    void everyCommittedChangeIsToldOnceAfterItsCommit() {
        Operation queued = reserved(ledger.reserve(request(session, epoch, "k1", "{\"a\":1}")));
        moved(ledger.begin(queued.id()));
        ledger.cancel(session, queued.id());
        moved(ledger.transition(
                queued.id(), OperationState.CANCELLED, EffectState.PARTIAL, Optional.empty(), Optional.empty()));

        assertThat(told).containsExactly("queued", "running", "cancelling", "cancelled");
        assertThat(threads)
                .as("told by the thread that committed: the writer, or this caller writing alone")
                .isSubsetOf("ledger-writer", Thread.currentThread().getName());
    }

    @Test
    void aRefusedChangeAndARepeatedReservationAreNotTold() {
        Operation queued = reserved(ledger.reserve(request(session, epoch, "k2", "{\"a\":1}")));
        told.clear();

        TransitionResult refused = ledger.transition(
                queued.id(), OperationState.SUCCEEDED, EffectState.COMPLETE, Optional.empty(), Optional.empty());
        Reservation repeat = ledger.reserve(request(session, epoch, "k2", "{\"a\":1}"));
        Reservation conflict = ledger.reserve(request(session, epoch, "k2", "{\"a\":2}"));

        assertThat(refused).isInstanceOf(TransitionResult.Refused.class);
        assertThat(repeat).isInstanceOf(Reservation.Duplicate.class);
        assertThat(((Reservation.Refused) conflict).code()).isEqualTo(ErrorCode.IDEMPOTENCY_CONFLICT);
        assertThat(told).isEmpty();
    }

    @Test
    void settlingALostSessionTellsEveryOperationItSettled() {
        Operation first = reserved(ledger.reserve(request(session, epoch, "k3", "{}")));
        Operation second = reserved(ledger.reserve(request(session, epoch, "k4", "{}")));
        moved(ledger.begin(second.id()));
        told.clear();

        ledger.settleLost(session, "revoked");

        assertThat(told).containsExactlyInAnyOrder("cancelled", "outcome_unknown");
        assertThat(first.id()).isNotEqualTo(second.id());
    }
}
