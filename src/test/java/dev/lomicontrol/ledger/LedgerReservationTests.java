package dev.lomicontrol.ledger;

import static dev.lomicontrol.ledger.LedgerFixture.PROJECT;
import static dev.lomicontrol.ledger.LedgerFixture.TOOL;
import static dev.lomicontrol.ledger.LedgerFixture.idOf;
import static dev.lomicontrol.ledger.LedgerFixture.request;
import static dev.lomicontrol.ledger.LedgerFixture.reserved;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.SessionId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class LedgerReservationTests extends OpenLedgerTest {

    @Test
    void newReservationIsQueuedWithNoEffectAndOneHistoryRow() {
        Operation operation = reserved(ledger.reserve(request(session, epoch, "k-1", "{\"path\":\"a.txt\"}")));

        assertThat(operation.state()).isEqualTo(OperationState.QUEUED);
        assertThat(operation.effect()).isEqualTo(EffectState.NONE);
        assertThat(operation.retainUntil()).isEqualTo(epoch.expiresAt());
        assertThat(ledger.eventsOf(operation.id()))
                .extracting(LedgerEvent::state)
                .containsExactly(OperationState.QUEUED);
    }

    @Test
    void duplicateReservationReturnsTheEarlierOperation() {
        Operation first = reserved(ledger.reserve(request(session, epoch, "k-1", "{\"path\":\"a.txt\",\"n\":1}")));
        Reservation again = ledger.reserve(request(session, epoch, "k-1", "{ \"n\" : 1.0, \"path\" : \"a.txt\" }"));

        assertThat(again).isInstanceOf(Reservation.Duplicate.class);
        assertThat(((Reservation.Duplicate) again).operation().id()).isEqualTo(first.id());
        assertThat(ledger.eventsOf(first.id())).hasSize(1);
    }

    @Test
    void changedInputUnderTheSameKeyIsAnIdempotencyConflict() {
        reserved(ledger.reserve(request(session, epoch, "k-1", "{\"path\":\"a.txt\"}")));
        Reservation changed = ledger.reserve(request(session, epoch, "k-1", "{\"path\":\"b.txt\"}"));

        assertThat(changed)
                .isInstanceOfSatisfying(
                        Reservation.Refused.class,
                        refused -> assertThat(refused.code()).isEqualTo(ErrorCode.IDEMPOTENCY_CONFLICT));
        assertThat(ledger.maintenance().status().receipts()).isEqualTo(1);
    }

    @Test
    void aDifferentResolvedTargetUnderTheSameKeyIsAnIdempotencyConflict() {
        ReserveRequest original = request(session, epoch, "k-1", "{\"path\":\"a.txt\"}");
        reserved(ledger.reserve(original));
        ReserveRequest retargeted = new ReserveRequest(
                session,
                epoch.id(),
                PROJECT,
                TOOL,
                new RequestKey("k-1"),
                original.input(),
                new Target("ws-1", "file:a.txt", "", "rev-2"));

        assertThat(ledger.reserve(retargeted))
                .isInstanceOfSatisfying(
                        Reservation.Refused.class,
                        refused -> assertThat(refused.code()).isEqualTo(ErrorCode.IDEMPOTENCY_CONFLICT));
    }

    @Test
    void thirtyTwoThreadsRacingOneKeyCreateExactlyOneReceipt() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(32);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Reservation>> results = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            results.add(pool.submit(() -> {
                start.await();
                return ledger.reserve(request(session, epoch, "race", "{\"path\":\"a.txt\"}"));
            }));
        }
        start.countDown();
        Set<OperationId> ids = new HashSet<>();
        int created = 0;
        for (Future<Reservation> result : results) {
            Reservation reservation = result.get();
            created += reservation instanceof Reservation.Reserved ? 1 : 0;
            ids.add(idOf(reservation).orElseThrow());
        }
        pool.shutdown();

        assertThat(created).isEqualTo(1);
        assertThat(ids).hasSize(1);
        assertThat(ledger.maintenance().status().receipts()).isEqualTo(1);
    }

    @Test
    void receiptsAreReadableOnlyByTheirOwnSession() {
        Operation operation = reserved(ledger.reserve(request(session, epoch, "k-1", "{}")));
        SessionId stranger = fixture.session();

        assertThat(ledger.get(session, operation.id())).contains(operation);
        assertThat(ledger.get(stranger, operation.id())).isEmpty();
        assertThat(ledger.getByKey(session, epoch.id(), TOOL, new RequestKey("k-1"), Optional.empty()))
                .contains(operation);
        assertThat(ledger.getByKey(stranger, epoch.id(), TOOL, new RequestKey("k-1"), Optional.empty()))
                .isEmpty();
        assertThat(ledger.getByKey(
                        session, epoch.id(), TOOL, new RequestKey("k-1"), Optional.of(new ProjectId("other"))))
                .isEmpty();
    }

    @Test
    void anotherSessionsEpochCannotReserve() {
        SessionId stranger = fixture.session();

        assertThat(ledger.reserve(request(stranger, epoch, "k-1", "{}")))
                .isInstanceOfSatisfying(
                        Reservation.Refused.class,
                        refused -> assertThat(refused.code()).isEqualTo(ErrorCode.RETRY_WINDOW_EXPIRED));
    }

    @Test
    void oversizedDeepOrNulInputIsRefusedBeforeAnythingIsWritten() {
        String big = "{\"text\":\"" + "x".repeat(70 * 1024) + "\"}";
        String deep = "[".repeat(40) + "]".repeat(40);

        assertThat(ledger.reserve(request(session, epoch, "big", big)))
                .isInstanceOfSatisfying(
                        Reservation.Refused.class,
                        refused -> assertThat(refused.code()).isEqualTo(ErrorCode.PAYLOAD_TOO_LARGE));
        assertThat(ledger.reserve(request(session, epoch, "deep", deep)))
                .isInstanceOfSatisfying(
                        Reservation.Refused.class,
                        refused -> assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
        assertThat(ledger.reserve(request(session, epoch, "nul", "{\"a\":\"x\\u0000y\"}")))
                .isInstanceOfSatisfying(
                        Reservation.Refused.class,
                        refused -> assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
        assertThat(ledger.maintenance().status().receipts()).isZero();
    }
}
