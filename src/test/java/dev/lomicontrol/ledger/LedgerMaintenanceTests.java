package dev.lomicontrol.ledger;

import static dev.lomicontrol.ledger.LedgerFixture.moved;
import static dev.lomicontrol.ledger.LedgerFixture.request;
import static dev.lomicontrol.ledger.LedgerFixture.reserved;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.testing.Files2;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LedgerMaintenanceTests extends OpenLedgerTest {

    @Test
    void reconcileRecordsTheAdminsFindingAsItsOwnHistoryEntryAndNeverRerunsAnything() {
        Operation unknown = outcomeUnknown("k-1");

        Operation reconciled = ledger.maintenance()
                .reconcile(unknown.id(), OperationState.SUCCEEDED, "file a.txt exists with the expected bytes");

        assertThat(reconciled.state()).as("what the broker observed stays").isEqualTo(OperationState.OUTCOME_UNKNOWN);
        assertThat(reconciled.resolution()).hasValueSatisfying(r -> {
            assertThat(r.finding()).isEqualTo(OperationState.SUCCEEDED);
            assertThat(r.note()).isEqualTo("file a.txt exists with the expected bytes");
        });
        assertThat(ledger.eventsOf(unknown.id())).last().satisfies(event -> {
            assertThat(event.kind()).isEqualTo("reconciled");
            assertThat(event.actor()).isEqualTo("admin");
        });
        assertThat(ledger.maintenance().status().unreconciledOutcomeUnknown()).isZero();
    }

    @Test
    void reconcileRefusesSettledOperationsASecondFindingAndAMissingNote() {
        Operation queued = reserved(ledger.reserve(request(session, epoch, "q", "{}")));
        Operation unknown = outcomeUnknown("u");

        assertRefused(
                () -> ledger.maintenance().reconcile(queued.id(), OperationState.FAILED, "checked"),
                ErrorCode.INVALID_ARGUMENT);
        assertRefused(
                () -> ledger.maintenance().reconcile(unknown.id(), OperationState.FAILED, " "),
                ErrorCode.INVALID_ARGUMENT);
        assertRefused(
                () -> ledger.maintenance().reconcile(unknown.id(), OperationState.RUNNING, "checked"),
                ErrorCode.INVALID_ARGUMENT);
        ledger.maintenance().reconcile(unknown.id(), OperationState.FAILED, "not there");
        assertRefused(
                () -> ledger.maintenance().reconcile(unknown.id(), OperationState.SUCCEEDED, "changed my mind"),
                ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void exportWritesAConsistentPrivateBackupAndNeverOverwrites() throws Exception {
        for (int i = 0; i < 5; i++) {
            reserved(ledger.reserve(request(session, epoch, "k-" + i, "{}")));
        }
        Path file = temp.resolve("backup.sqlite3");

        ExportResult export = ledger.maintenance().export(file);

        assertThat(export.operations()).isEqualTo(5);
        assertThat(export.sha256()).isEqualTo(Files2.sha256(file));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM operation_history")) {
            assertThat(rs.getLong(1)).isEqualTo(5);
        }
        assertThat(ledger.maintenance().status().lastExport())
                .hasValueSatisfying(last -> assertThat(last.sha256()).isEqualTo(export.sha256()));
        assertRefused(() -> ledger.maintenance().export(file), ErrorCode.INVALID_ARGUMENT);
        assertThat(Files2.sha256(file)).isEqualTo(export.sha256());
    }

    @Test
    void purgeRefusesWithoutConfirmationWithoutAnExportAndWhenTheExportFileChanged() throws Exception {
        Operation done = succeeded("k-1");
        fixture.clock.advance(Duration.ofDays(3));

        assertRefused(() -> ledger.maintenance().purge(Optional.empty(), false), ErrorCode.INVALID_ARGUMENT);
        assertRefused(() -> ledger.maintenance().purge(Optional.empty(), true), ErrorCode.INVALID_ARGUMENT);
        Path export = temp.resolve("b1");
        ledger.maintenance().export(export);
        Files.write(export, new byte[] {1}, java.nio.file.StandardOpenOption.APPEND);
        assertRefused(() -> ledger.maintenance().purge(Optional.empty(), true), ErrorCode.INVALID_ARGUMENT);
        assertThat(ledger.get(session, done.id())).isPresent();
    }

    @Test
    void purgeDeletesOnlyExpiredSettledRowsAndKeepsUnreconciledUnknowns() throws Exception {
        Operation done = succeeded("done");
        Operation unknown = outcomeUnknown("unknown");
        Operation reconciledUnknown = outcomeUnknown("reconciled");
        ledger.maintenance().reconcile(reconciledUnknown.id(), OperationState.CANCELLED, "nothing happened on disk");
        Operation stillQueued = reserved(ledger.reserve(request(session, epoch, "queued", "{}")));
        fixture.clock.advance(Duration.ofDays(3));
        SessionId fresh = fixture.session();
        Operation recent = succeededFor(fresh, ledger.issueEpoch(fresh), "recent");
        ledger.maintenance().export(temp.resolve("before-purge"));

        PurgeResult purged = ledger.maintenance().purge(Optional.empty(), true);

        assertThat(purged.operations()).isEqualTo(2);
        assertThat(purged.keptUnreconciled()).isEqualTo(1);
        assertThat(ledger.get(session, done.id())).isEmpty();
        assertThat(ledger.get(session, reconciledUnknown.id())).isEmpty();
        assertThat(ledger.get(session, unknown.id())).isPresent();
        assertThat(ledger.get(session, stillQueued.id()))
                .as("not settled: never purged")
                .isPresent();
        assertThat(ledger.get(fresh, recent.id())).as("not expired").isPresent();
        assertThat(ledger.maintenance().check()).isEqualTo("ok");
    }

    private Operation succeeded(String key) {
        return succeededFor(session, epoch, key);
    }

    private Operation succeededFor(SessionId who, RetryEpoch window, String key) {
        return LedgerFixture.succeeded(ledger, who, window, key);
    }

    private Operation outcomeUnknown(String key) {
        Operation operation = reserved(ledger.reserve(request(session, epoch, key, "{}")));
        moved(ledger.begin(operation.id()));
        return ledger.settleLost(operation.id(), "deadline passed");
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, ErrorCode code) {
        assertThatThrownBy(call)
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(code));
    }
}
