package dev.lomicontrol.ledger;

import static dev.lomicontrol.ledger.LedgerFixture.request;
import static dev.lomicontrol.ledger.LedgerFixture.reserved;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.SessionId;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerCapsAndEpochsTests {

    @TempDir
    Path temp;

    @Test
    void the4097thReceiptIsRefusedAndEveryEarlierRowStaysIntact() throws Exception {
        LedgerFixture fixture = new LedgerFixture(temp);
        try (Ledger ledger = fixture.open()) {
            SessionId session = fixture.session();
            RetryEpoch epoch = ledger.issueEpoch(session);
            ExecutorService pool = Executors.newFixedThreadPool(16);
            List<Future<Reservation>> results = new ArrayList<>();
            for (int i = 0; i < 4096; i++) {
                String key = "k-" + i;
                results.add(pool.submit(() -> ledger.reserve(request(session, epoch, key, "{}"))));
            }
            for (Future<Reservation> result : results) {
                assertThat(result.get()).isInstanceOf(Reservation.Reserved.class);
            }
            pool.shutdown();

            Reservation overflow = ledger.reserve(request(session, epoch, "k-4096", "{}"));
            Reservation replay = ledger.reserve(request(session, epoch, "k-17", "{}"));

            assertThat(overflow)
                    .isInstanceOfSatisfying(
                            Reservation.Refused.class,
                            refused -> assertThat(refused.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED));
            assertThat(replay)
                    .as("a retry of existing work still answers at the cap")
                    .isInstanceOf(Reservation.Duplicate.class);
            LedgerStatus status = ledger.maintenance().status();
            assertThat(status.receipts()).isEqualTo(4096);
            assertThat(status.byState().get("queued")).isEqualTo(4096);
            assertThat(status.historyHead()).isEqualTo(4096);
            assertThat(status.atReceiptCap()).isTrue();
        }
    }

    @Test
    void the4097thRetryEpochIsRefusedAndReconnectingDoesNotClearHistory() throws Exception {
        LedgerFixture fixture = new LedgerFixture(temp);
        try (Ledger ledger = fixture.open()) {
            ExecutorService pool = Executors.newFixedThreadPool(16);
            List<Future<RetryEpoch>> epochs = new ArrayList<>();
            for (int i = 0; i < 4096; i++) {
                epochs.add(pool.submit(() -> ledger.issueEpoch(fixture.session())));
            }
            for (Future<RetryEpoch> epoch : epochs) {
                assertThat(epoch.get()).isNotNull();
            }
            pool.shutdown();

            assertThatThrownBy(() -> ledger.issueEpoch(fixture.session()))
                    .isInstanceOfSatisfying(
                            LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED));
            fixture.clock.advance(Duration.ofDays(2));
            assertThatThrownBy(() -> ledger.issueEpoch(fixture.session()))
                    .as("expired rows are not deleted automatically")
                    .isInstanceOfSatisfying(
                            LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED));
            assertThat(ledger.maintenance().status().expiredEpochs()).isEqualTo(4096);
        }
    }

    @Test
    void anEpochExpiresAfterItsLifetimeOnTheInjectedClock() {
        LedgerFixture fixture = new LedgerFixture(temp);
        try (Ledger ledger = fixture.open()) {
            SessionId session = fixture.session();
            RetryEpoch epoch = ledger.issueEpoch(session);
            Operation early = reserved(ledger.reserve(request(session, epoch, "early", "{}")));

            fixture.clock.advance(Duration.ofHours(24).minusSeconds(1));
            assertThat(ledger.reserve(request(session, epoch, "late-but-in-time", "{}")))
                    .isInstanceOf(Reservation.Reserved.class);
            fixture.clock.advance(Duration.ofSeconds(1));

            assertThat(ledger.reserve(request(session, epoch, "too-late", "{}")))
                    .isInstanceOfSatisfying(
                            Reservation.Refused.class,
                            refused -> assertThat(refused.code()).isEqualTo(ErrorCode.RETRY_WINDOW_EXPIRED));
            assertThat(ledger.begin(early.id()))
                    .as("dispatch rechecks the epoch")
                    .isInstanceOfSatisfying(
                            TransitionResult.Refused.class,
                            refused -> assertThat(refused.code()).isEqualTo(ErrorCode.RETRY_WINDOW_EXPIRED));
        }
    }

    @Test
    void epochsOfAnEarlierBrokerInstanceAreExpiredAfterReopen() {
        LedgerFixture fixture = new LedgerFixture(temp);
        SessionId session = fixture.session();
        RetryEpoch old;
        Operation queued;
        try (Ledger ledger = fixture.open()) {
            old = ledger.issueEpoch(session);
            queued = reserved(ledger.reserve(request(session, old, "k-1", "{}")));
        }
        try (Ledger reopened = fixture.open()) {
            assertThat(reopened.reserve(request(session, old, "k-2", "{}")))
                    .isInstanceOfSatisfying(
                            Reservation.Refused.class,
                            refused -> assertThat(refused.code()).isEqualTo(ErrorCode.RETRY_WINDOW_EXPIRED));
            assertThat(reopened.reserve(request(session, old, "k-1", "{}")))
                    .as("not even an exact retry revives an old epoch")
                    .isInstanceOfSatisfying(
                            Reservation.Refused.class,
                            refused -> assertThat(refused.code()).isEqualTo(ErrorCode.RETRY_WINDOW_EXPIRED));
            RetryEpoch fresh = reopened.issueEpoch(session);
            Operation renewed = reserved(reopened.reserve(request(session, fresh, "k-1", "{}")));
            assertThat(renewed.id()).isNotEqualTo(queued.id());
        }
    }
}
