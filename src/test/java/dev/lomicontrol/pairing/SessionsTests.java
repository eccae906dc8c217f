package dev.lomicontrol.pairing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerProperties;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.ledger.Reservation;
import dev.lomicontrol.ledger.ReserveRequest;
import dev.lomicontrol.ledger.RetryEpoch;
import dev.lomicontrol.ledger.Target;
import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.MutableClock;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

class SessionsTests {

    @TempDir
    Path temp;

    final MutableClock clock = MutableClock.startingAt("2026-11-30T10:00:00Z");

    @Test
    void revokeEndsAuthorityAtOnceWhileTheLedgerWriterIsBusyAndSettlesWorkAfterwards() throws Exception {
        try (Ledger ledger = Ledger.open(
                        temp.resolve("agent-control"), LedgerProperties.defaults(), clock, new SecureRandom());
                Sessions sessions = new Sessions(ledger, clock)) {
            AtomicBoolean disconnected = new AtomicBoolean();
            Session session = sessions.open(request(), Grant.full(), () -> disconnected.set(true));
            RetryEpoch epoch = ledger.issueEpoch(session.id());
            Operation running = reserveAndBegin(ledger, session, epoch, "run-1");
            Operation queued = ((Reservation.Reserved) ledger.reserve(request(session, epoch, "queued-1"))).operation();
            CountDownLatch writerHeld = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread blocker = new Thread(() -> ledger.write(c -> {
                writerHeld.countDown();
                awaitQuietly(release);
                return null;
            }));
            blocker.start();
            assertThat(writerHeld.await(5, TimeUnit.SECONDS)).isTrue();

            // the writer stays held until the revocation has returned: a revoke that waited for the
            // ledger would never return (30 s is a generous bound for a call that must not block at all)
            assertThat(CompletableFuture.supplyAsync(() -> sessions.revoke(session.id(), "admin revoked"))
                            .get(30, TimeUnit.SECONDS))
                    .as("revocation does not wait for the ledger")
                    .isTrue();
            assertThat(release.getCount())
                    .as("the ledger writer was still held while revoking")
                    .isOne();
            release.countDown();

            assertThat(session.isAlive()).isFalse();
            assertThat(disconnected).isTrue();
            assertThatThrownBy(session::requireAlive)
                    .isInstanceOfSatisfying(
                            LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONTROL_REVOKED));
            blocker.join();
            awaitState(ledger, session, running, OperationState.OUTCOME_UNKNOWN);
            awaitState(ledger, session, queued, OperationState.CANCELLED);
        }
    }

    @Test
    void revokingTwiceOrAnUnknownSessionReportsFalse() throws Exception {
        try (Ledger ledger = Ledger.open(
                        temp.resolve("agent-control"), LedgerProperties.defaults(), clock, new SecureRandom());
                Sessions sessions = new Sessions(ledger, clock)) {
            Session session = sessions.open(request(), Grant.full(), () -> {});

            assertThat(sessions.revoke(session.id(), "first")).isTrue();
            assertThat(sessions.revoke(session.id(), "second")).isFalse();
            assertThat(session.revokedReason()).isEqualTo("first");
            assertThat(sessions.list()).isEmpty();
        }
    }

    @Test
    void yoloIsSavedAndTogglingItRevokesLiveSessions() throws Exception {
        Path store = temp.resolve("agent-control");
        try (Ledger ledger = Ledger.open(store, LedgerProperties.defaults(), clock, new SecureRandom());
                Sessions sessions = new Sessions(ledger, clock)) {
            Pairings pairings = new Pairings(clock, new SecureRandom());
            YoloPolicy yolo = new YoloPolicy(ledger, pairings, sessions, clock);
            assertThat(yolo.isOn()).as("default off").isFalse();
            Session session = sessions.open(request(), Grant.full(), () -> {});

            assertThat(yolo.set(true)).isEqualTo(1);

            assertThat(session.isAlive()).isFalse();
            assertThat(pairings.yolo()).isTrue();
        }
        try (Ledger ledger = Ledger.open(store, LedgerProperties.defaults(), clock, new SecureRandom());
                Sessions sessions = new Sessions(ledger, clock)) {
            Pairings pairings = new Pairings(clock, new SecureRandom());
            assertThat(new YoloPolicy(ledger, pairings, sessions, clock).isOn())
                    .as("saved across restarts")
                    .isTrue();
        }
    }

    private static PairingRequest request() {
        Instant now = Instant.parse("2026-11-30T10:00:00Z");
        return new PairingRequest("pr-1", "claude", "ab".repeat(32), 42, now, now.plusSeconds(120));
    }

    private static ReserveRequest request(Session session, RetryEpoch epoch, String key) {
        return new ReserveRequest(
                session.id(),
                epoch.id(),
                new ProjectId("p"),
                new ToolName("lomi_terminal_run"),
                new RequestKey(key),
                JsonMapper.builder().build().readTree("{}"),
                Target.none());
    }

    private static Operation reserveAndBegin(Ledger ledger, Session session, RetryEpoch epoch, String key) {
        Operation operation = ((Reservation.Reserved) ledger.reserve(request(session, epoch, key))).operation();
        ledger.begin(operation.id());
        return operation;
    }

    private static void awaitState(Ledger ledger, Session session, Operation operation, OperationState state) {
        Eventually.await(
                operation.id() + " becomes " + state,
                Duration.ofSeconds(30),
                () -> ledger.get(session.id(), operation.id()).orElseThrow().state(),
                state::equals);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
