package dev.lomicontrol.ledger;

import static dev.lomicontrol.ledger.LedgerFixture.request;
import static dev.lomicontrol.ledger.LedgerFixture.reserved;
import static dev.lomicontrol.ledger.LedgerFixture.succeeded;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.SessionId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault suite with purges in the mix (issue 19): a purge on a store at its size ceiling is the
 * way out (it frees room for new work), and a purge on a really full disk either happens whole or
 * not at all — never a half-deleted receipt — and works once space is freed, without a restart.
 */
class LedgerPurgeFaultTests {

    static final String BULKY = "{\"text\":\"" + "x".repeat(3000) + "\"}";

    @TempDir
    Path temp;

    @Test
    void aPurgeFreesRoomInAStoreAtItsSizeCeilingAndNewWorkIsTakenAgain() throws Exception {
        LedgerFixture fixture = new LedgerFixture(temp);
        fixture.open().close();
        try (Ledger ledger = fixture.open(
                LedgerProperties.defaults().withMaxPageCount(pages(fixture.store.resolve("control.sqlite3")) + 40))) {
            SessionId gone = fixture.session();
            fillUntilRefused(ledger, gone, ledger.issueEpoch(gone));
            Throwable settling = catchThrowable(() -> ledger.settleLost(gone, "disconnected"));
            assertThat(settling)
                    .as("settling may not fit any more; the end of the connection is recorded anyway")
                    .satisfiesAnyOf(
                            t -> assertThat(t).isNull(),
                            t -> assertThat(((LomiException) t).code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE));
            long settled = ledger.maintenance().status().reclaim().purgeableReceipts();
            assertThat(settled).isPositive();
            SessionId next = fixture.session();
            RetryEpoch epoch = ledger.issueEpoch(next);
            // the fill may have stopped at a transition that did not fit while a receipt still does
            // (which page a write needs depends on the layout): a few more receipts at most
            assertThat(reserveUntilRefused(ledger, next, epoch))
                    .as("the store is full")
                    .isInstanceOfSatisfying(
                            Reservation.Refused.class,
                            r -> assertThat(r.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE));

            ledger.maintenance().export(temp.resolve("export.sqlite3"));
            PurgeResult purged = ledger.maintenance().purge(Optional.empty(), true);

            assertThat(purged.operations()).isEqualTo(settled);
            assertThat(ledger.reserve(request(next, epoch, "after-purge", BULKY)))
                    .as("room again")
                    .isInstanceOf(Reservation.Reserved.class);
            assertThat(ledger.maintenance().check()).isEqualTo("ok");
        }
    }

    @Test
    void aPurgeOnAFullDiskHappensWholeOrNotAtAllAndWorksOnceSpaceIsFreed() throws Exception {
        try (SmallTmpfs small = SmallTmpfs.mount(temp.resolve("small"), "3m")) {
            LedgerFixture fixture = new LedgerFixture(small.mount);
            try (Ledger ledger = fixture.open()) {
                SessionId gone = fixture.session();
                RetryEpoch epoch = ledger.issueEpoch(gone);
                for (int i = 0; i < 60; i++) {
                    succeeded(ledger, reserved(ledger.reserve(request(gone, epoch, "k-" + i, BULKY))));
                }
                ledger.settleLost(gone, "disconnected");
                ledger.maintenance().export(temp.resolve("export.sqlite3"));
                // the rows' WAL into the database first, so that the filler (not the ledger's own WAL) is what fills
                // the disk
                // and deleting it frees space; a WAL below the auto-checkpoint size would otherwise hold it
                ledger.checkpoint();
                Path filler = small.fill(128);

                Throwable fault = catchThrowable(() -> ledger.maintenance().purge(Optional.empty(), true));
                long left = ledger.maintenance().status().receipts();
                if (fault != null) {
                    assertThat(fault)
                            .isInstanceOfSatisfying(
                                    LomiException.class,
                                    e -> assertThat(e.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE));
                    assertThat(left).as("refused whole: nothing deleted").isEqualTo(60);
                } else {
                    assertThat(left).as("done whole").isZero();
                }
                assertThat(ledger.maintenance().check()).isEqualTo("ok");
                assertThat(ledger.maintenance().status().historyHead())
                        .as("no receipt without its three history rows")
                        .isEqualTo(left == 0 ? 0 : 180);
                System.err.println("purge on a full disk: "
                        + (fault == null ? "went through (the WAL had room)" : "refused: " + fault.getMessage()));

                Files.delete(filler);
                if (left > 0) {
                    assertThat(ledger.maintenance()
                                    .purge(Optional.empty(), true)
                                    .operations())
                            .as("works once space is freed")
                            .isEqualTo(60);
                }
                SessionId next = fixture.session();
                assertThat(ledger.reserve(request(next, ledger.issueEpoch(next), "after", "{}")))
                        .isInstanceOf(Reservation.Reserved.class);
                assertThat(ledger.maintenance().check()).isEqualTo("ok");
            }
        }
    }

    /** Settled bulky receipts until the store's ceiling refuses a write (a receipt may be left unfinished then). */
    private static Reservation reserveUntilRefused(Ledger ledger, SessionId session, RetryEpoch epoch) {
        for (int i = 0; i < 20; i++) {
            Reservation reservation = ledger.reserve(request(session, epoch, "refused-" + i, BULKY));
            if (!(reservation instanceof Reservation.Reserved)) {
                return reservation;
            }
        }
        throw new AssertionError("the store took 20 more receipts after it was full");
    }

    private static void fillUntilRefused(Ledger ledger, SessionId session, RetryEpoch epoch) {
        for (int i = 0; i < 2000; i++) {
            Reservation reservation = ledger.reserve(request(session, epoch, "fill-" + i, BULKY));
            if (!(reservation instanceof Reservation.Reserved)) {
                assertThat(((Reservation.Refused) reservation).code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE);
                return;
            }
            Operation operation = ((Reservation.Reserved) reservation).operation();
            try {
                succeeded(ledger, operation);
            } catch (LomiException e) {
                assertThat(e.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE);
                return;
            }
        }
        throw new AssertionError("the store never filled");
    }

    private static long pages(Path db) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("PRAGMA page_count")) {
            return rs.getLong(1);
        }
    }
}
