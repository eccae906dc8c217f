package dev.lomicontrol.ledger;

import static dev.lomicontrol.ledger.LedgerFixture.moved;
import static dev.lomicontrol.ledger.LedgerFixture.request;
import static dev.lomicontrol.ledger.LedgerFixture.reserved;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.SessionId;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19: a full ledger works again the same day. Settled receipts whose retry epoch can no
 * longer be used (connection ended, earlier broker run) are purgeable at once after a fresh export;
 * a live connection's rows and unreconciled outcome_unknown rows are kept; the caps' refusals and
 * warnings say what is full and what to do. Real SQLite files, the clock never moves unless stated.
 */
class LedgerReclaimTests {

    @TempDir
    Path temp;

    LedgerFixture fixture;
    Ledger ledger;

    @BeforeEach
    void open() {
        fixture = new LedgerFixture(temp);
        ledger = fixture.open(LedgerProperties.defaults().withCaps(10, 4));
    }

    @AfterEach
    void close() {
        ledger.close();
    }

    @Test
    void settledReceiptsOfAnEndedConnectionArePurgeableTheSameDayAndTheExportHoldsThem() throws Exception {
        SessionId agent = fixture.session();
        RetryEpoch epoch = ledger.issueEpoch(agent);
        List<Operation> done = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            done.add(succeeded(agent, epoch, "k-" + i));
        }
        assertThat(ledger.maintenance().status().reclaim().purgeableReceipts())
                .as("live: nothing purgeable")
                .isZero();

        ledger.settleLost(agent, "disconnected");
        LedgerStatus status = ledger.maintenance().status();
        assertThat(status.reclaim().purgeableReceipts()).isEqualTo(3);
        assertThat(status.reclaim().purgeableEpochs()).isEqualTo(1);
        Path export = temp.resolve("export.sqlite3");
        ledger.maintenance().export(export);
        PurgeResult purged = ledger.maintenance().purge(Optional.empty(), true);

        assertThat(purged.operations()).isEqualTo(3);
        assertThat(purged.historyRows()).as("queued, running, succeeded each").isEqualTo(9);
        assertThat(purged.epochs()).isEqualTo(1);
        assertThat(ledger.maintenance().status().receipts()).isZero();
        assertThat(ledger.headroom().receipts())
                .as("the cheap counts follow the purge")
                .isZero();
        assertThat(ledger.headroom().epochs()).isZero();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + export);
                Statement s = c.createStatement()) {
            for (Operation operation : done) {
                try (ResultSet rs = s.executeQuery(
                        "SELECT state, (SELECT count(*) FROM operation_history WHERE operation_id = id) FROM operation WHERE id = '"
                                + operation.id() + "'")) {
                    assertThat(rs.next())
                            .as("the export holds " + operation.id())
                            .isTrue();
                    assertThat(rs.getString(1)).isEqualTo("succeeded");
                    assertThat(rs.getLong(2)).isEqualTo(3);
                }
            }
        }
        Reservation retry = ledger.reserve(request(agent, epoch, "k-0", "{}"));
        assertThat(retry)
                .isInstanceOfSatisfying(
                        Reservation.Refused.class, r -> assertThat(r.code()).isEqualTo(ErrorCode.RETRY_WINDOW_EXPIRED));
        assertThat(ledger.maintenance().check()).isEqualTo("ok");
    }

    @Test
    void aHistoryNumberIsNeverHandedOutTwiceAfterAPurgeDeletedTheNewestRows() {
        SessionId agent = fixture.session();
        RetryEpoch epoch = ledger.issueEpoch(agent);
        succeededFrom(agent, epoch, 3);
        long head = ledger.maintenance().status().historyHead();
        ledger.settleLost(agent, "disconnected");
        ledger.maintenance().export(temp.resolve("export.sqlite3"));
        assertThat(ledger.maintenance().purge(Optional.empty(), true).historyRows())
                .as("every row, the newest among them")
                .isEqualTo(head);
        assertThat(ledger.events(Optional.empty(), 0, 10)).isEmpty();

        SessionId next = fixture.session();
        Operation fresh = reserved(ledger.reserve(request(next, ledger.issueEpoch(next), "k-0", "{}")));

        assertThat(ledger.eventsOf(fresh.id()))
                .singleElement()
                .satisfies(event -> assertThat(event.sequence())
                        .as("above every number handed out before the purge: a feed reader's cursor at " + head
                                + " sees it")
                        .isEqualTo(head + 1));
        assertThat(ledger.events(Optional.empty(), head, 10)).hasSize(1);
        ledger.close();
        ledger = fixture.open(LedgerProperties.defaults().withCaps(10, 4));
        Operation afterRestart = reserved(ledger.reserve(request(next, ledger.issueEpoch(next), "k-1", "{}")));
        assertThat(ledger.eventsOf(afterRestart.id()).get(0).sequence())
                .as("the recovery row of the restart came first")
                .isGreaterThan(head + 1);
    }

    @Test
    void anEndedConnectionsEpochAnswersRetryWindowExpiredBeforeAnyPurge() {
        SessionId agent = fixture.session();
        RetryEpoch epoch = ledger.issueEpoch(agent);
        succeeded(agent, epoch, "k");
        ledger.settleLost(agent, "revoked");

        Reservation again = ledger.reserve(request(agent, epoch, "k", "{}"));
        Reservation fresh = ledger.reserve(request(agent, epoch, "new", "{}"));

        assertThat(again)
                .isInstanceOfSatisfying(
                        Reservation.Refused.class, r -> assertThat(r.code()).isEqualTo(ErrorCode.RETRY_WINDOW_EXPIRED));
        assertThat(fresh).isInstanceOfSatisfying(Reservation.Refused.class, r -> {
            assertThat(r.code()).isEqualTo(ErrorCode.RETRY_WINDOW_EXPIRED);
            assertThat(r.message()).contains("connection that has ended");
        });
        assertThat(ledger.issueEpoch(agent).id())
                .as("an epoch issued after the end is ended too")
                .satisfies(id -> assertThat(ledger.reserve(
                                request(agent, new RetryEpoch(id, agent, ledger.instance(), null, null), "x", "{}")))
                        .isInstanceOf(Reservation.Refused.class));
    }

    @Test
    void aLiveConnectionsRowsAreKeptAndNamedUntilItEnds() {
        SessionId live = fixture.session();
        RetryEpoch liveEpoch = ledger.issueEpoch(live);
        Operation kept = succeeded(live, liveEpoch, "live-1");
        reserved(ledger.reserve(request(live, liveEpoch, "live-queued", "{}")));
        SessionId gone = fixture.session();
        succeeded(gone, ledger.issueEpoch(gone), "gone-1");
        ledger.settleLost(gone, "disconnected");

        ledger.maintenance().export(temp.resolve("e1"));
        PurgeResult first = ledger.maintenance().purge(Optional.empty(), true);

        assertThat(first.operations()).isEqualTo(1);
        assertThat(first.liveSessions()).singleElement().satisfies(holder -> {
            assertThat(holder.sessionId()).isEqualTo(live.value());
            assertThat(holder.receipts()).isEqualTo(2);
            assertThat(holder.unfinished()).isEqualTo(1);
            assertThat(holder.epochs()).isEqualTo(1);
        });
        assertThat(ledger.get(live, kept.id())).isPresent();

        ledger.settleLost(live, "revoked by the admin");
        assertThat(ledger.maintenance().status().reclaim().purgeableReceipts())
                .as("the queued one was cancelled: both settled")
                .isEqualTo(2);
        ledger.maintenance().export(temp.resolve("e2"));
        PurgeResult second = ledger.maintenance().purge(Optional.empty(), true);
        assertThat(second.operations()).isEqualTo(2);
        assertThat(second.epochs()).isEqualTo(1);
        assertThat(second.liveSessions()).isEmpty();
    }

    @Test
    void outcomeUnknownRowsOfAnEndedConnectionStayUntilTheAdminRecordsAFinding() {
        SessionId agent = fixture.session();
        RetryEpoch epoch = ledger.issueEpoch(agent);
        Operation running = reserved(ledger.reserve(request(agent, epoch, "run", "{}")));
        moved(ledger.begin(running.id()));
        ledger.settleLost(agent, "disconnected while running");
        assertThat(ledger.maintenance().status().reclaim().awaitingFinding()).isEqualTo(1);

        ledger.maintenance().export(temp.resolve("e1"));
        PurgeResult before = ledger.maintenance().purge(Optional.empty(), true);
        assertThat(before.operations()).isZero();
        assertThat(before.keptUnreconciled()).isEqualTo(1);
        assertThat(before.epochs()).as("its epoch is still referenced").isZero();

        ledger.maintenance().reconcile(running.id(), OperationState.FAILED, "the file is not there");
        ledger.maintenance().export(temp.resolve("e2"));
        PurgeResult after = ledger.maintenance().purge(Optional.empty(), true);
        assertThat(after.operations()).isEqualTo(1);
        assertThat(after.historyRows())
                .as("queued, running, outcome_unknown, reconciled")
                .isEqualTo(4);
        assertThat(after.epochs()).isEqualTo(1);
    }

    @Test
    void receiptsAndEpochsOfAnEarlierBrokerRunArePurgeableAfterARestart() {
        SessionId agent = fixture.session();
        RetryEpoch epoch = ledger.issueEpoch(agent);
        succeeded(agent, epoch, "a");
        reserved(ledger.reserve(request(agent, epoch, "left-queued", "{}")));
        ledger.close();
        ledger = fixture.open(LedgerProperties.defaults().withCaps(10, 4));

        LedgerStatus status = ledger.maintenance().status();
        assertThat(status.reclaim().purgeableReceipts()).as("the succeeded one").isEqualTo(1);
        assertThat(status.reclaim().awaitingFinding())
                .as("queued at the kill → outcome_unknown at reopen")
                .isEqualTo(1);
        assertThat(status.reclaim().liveSessions()).isEmpty();
        ledger.maintenance().export(temp.resolve("e"));
        PurgeResult purged = ledger.maintenance().purge(Optional.empty(), true);
        assertThat(purged.operations()).isEqualTo(1);
        assertThat(purged.keptUnreconciled()).isEqualTo(1);
        assertThat(ledger.maintenance().status().epochs())
                .as("still referenced by the outcome_unknown row")
                .isEqualTo(1);
    }

    @Test
    void anEpochIssuedAfterTheExportIsNotPurgedBecauseTheExportLacksIt() {
        SessionId early = fixture.session();
        succeeded(early, ledger.issueEpoch(early), "a");
        ledger.settleLost(early, "gone");
        ledger.maintenance().export(temp.resolve("e"));
        SessionId late = fixture.session();
        ledger.issueEpoch(late);
        ledger.settleLost(late, "gone without work");

        PurgeResult purged = ledger.maintenance().purge(Optional.empty(), true);

        assertThat(purged.operations()).isEqualTo(1);
        assertThat(purged.epochs()).as("only the exported epoch").isEqualTo(1);
        assertThat(ledger.maintenance().status().epochs()).isEqualTo(1);
    }

    @Test
    void agentsMayKeepWorkingDuringAPurgeAndRowsThatChangedSinceTheExportAreKept() {
        SessionId gone = fixture.session();
        RetryEpoch goneEpoch = ledger.issueEpoch(gone);
        succeeded(gone, goneEpoch, "settled");
        Operation running = reserved(ledger.reserve(request(gone, goneEpoch, "running", "{}")));
        moved(ledger.begin(running.id()));
        ledger.settleLost(gone, "disconnected");
        ledger.maintenance().export(temp.resolve("e"));
        ledger.maintenance().reconcile(running.id(), OperationState.SUCCEEDED, "reconciled after the export");
        SessionId busy = fixture.session();
        succeeded(busy, ledger.issueEpoch(busy), "work-after-the-export");

        PurgeResult purged = ledger.maintenance().purge(Optional.empty(), true);

        assertThat(purged.operations())
                .as("the row the export holds as it is now")
                .isEqualTo(1);
        assertThat(purged.keptChanged()).as("reconciled after the export").isEqualTo(1);
        assertThat(purged.epochs()).as("still referenced by the kept row").isZero();
        ledger.maintenance().export(temp.resolve("e2"));
        assertThat(ledger.maintenance().purge(Optional.empty(), true).operations())
                .isEqualTo(1);
    }

    @Test
    void beforeLimitsThePurgeToRowsSettledEarlier() {
        SessionId agent = fixture.session();
        RetryEpoch epoch = ledger.issueEpoch(agent);
        succeeded(agent, epoch, "old");
        fixture.clock.advance(Duration.ofHours(2));
        java.time.Instant cut = fixture.clock.instant();
        fixture.clock.advance(Duration.ofHours(2));
        succeeded(agent, epoch, "new");
        ledger.settleLost(agent, "gone");
        ledger.maintenance().export(temp.resolve("e"));

        PurgeResult purged = ledger.maintenance().purge(Optional.of(cut), true);

        assertThat(purged.operations()).isEqualTo(1);
        assertThat(purged.epochs()).as("still referenced by the newer receipt").isZero();
    }

    @Test
    void refusalsAtTheCapsNameWhatIsFullTheCountsAndTheConsoleCommands() {
        SessionId agent = fixture.session();
        RetryEpoch epoch = ledger.issueEpoch(agent);
        succeededFrom(agent, epoch, 10);
        Reservation refused = ledger.reserve(request(agent, epoch, "k-10", "{}"));
        assertThat(refused).isInstanceOfSatisfying(Reservation.Refused.class, r -> {
            assertThat(r.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
            assertThat(r.message())
                    .contains(
                            "receipts are full (10 of cap 10)",
                            "new work is refused",
                            "1 live sessions hold 10 receipts",
                            "lomi-control console ledger status",
                            "session revoke <id> --confirm",
                            "ledger export <file>",
                            "ledger purge --expired --confirm");
        });
        for (int i = 0; i < 3; i++) {
            SessionId other = fixture.session();
            ledger.issueEpoch(other);
            ledger.settleLost(other, "gone");
        }
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> ledger.issueEpoch(fixture.session())))
                .isInstanceOfSatisfying(dev.lomicontrol.core.LomiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
                    assertThat(e.getMessage())
                            .contains(
                                    "retry epochs are full (4 of cap 4)",
                                    "lomi_connect",
                                    "0 receipts and 3 retry epochs",
                                    "ledger purge --expired --confirm");
                });
    }

    @Test
    void warningLevelsStartAt80And95PercentOfACap() {
        assertThat(CapLevel.of(3276, 4096)).isEqualTo(CapLevel.BELOW_80);
        assertThat(CapLevel.of(3277, 4096)).isEqualTo(CapLevel.FROM_80);
        assertThat(CapLevel.of(3891, 4096)).isEqualTo(CapLevel.FROM_80);
        assertThat(CapLevel.of(3892, 4096)).isEqualTo(CapLevel.FROM_95);
        assertThat(CapLevel.of(4095, 4096)).isEqualTo(CapLevel.FROM_95);
        assertThat(CapLevel.of(4096, 4096)).isEqualTo(CapLevel.FULL);
        assertThat(new Headroom(3276, 4096, 0, 4096).agentWarning()).isEmpty();
        assertThat(new Headroom(3277, 4096, 0, 4096).agentWarning())
                .hasValueSatisfying(w -> assertThat(w)
                        .contains(
                                "3277 of 4096 receipts (80 % or more)", "may soon be refused with RESOURCE_EXHAUSTED"));
        assertThat(new Headroom(0, 4096, 4096, 4096).agentWarning())
                .hasValueSatisfying(
                        w -> assertThat(w).contains("4096 of 4096 retry epochs (at the cap)", "new work is refused"));

        SessionId agent = fixture.session();
        RetryEpoch epoch = ledger.issueEpoch(agent);
        for (int i = 0; i < 8; i++) {
            reserved(ledger.reserve(request(agent, epoch, "k-" + i, "{}")));
        }
        assertThat(ledger.headroom().receiptLevel()).isEqualTo(CapLevel.FROM_80);
        assertThat(ledger.maintenance().status().receiptLevel()).isEqualTo(CapLevel.FROM_80);
        reserved(ledger.reserve(request(agent, epoch, "k-8", "{}")));
        reserved(ledger.reserve(request(agent, epoch, "k-9", "{}")));
        assertThat(ledger.headroom().receiptLevel()).isEqualTo(CapLevel.FULL);
        assertThat(ledger.headroom().agentWarning())
                .hasValueSatisfying(w -> assertThat(w).contains("10 of 10 receipts (at the cap)"));
    }

    /** {@code count} succeeded operations under keys {@code k-0}, {@code k-1}, ... */
    private void succeededFrom(SessionId who, RetryEpoch window, int count) {
        for (int i = 0; i < count; i++) {
            succeeded(who, window, "k-" + i);
        }
    }

    private Operation succeeded(SessionId who, RetryEpoch window, String key) {
        return LedgerFixture.succeeded(ledger, who, window, key);
    }
}
