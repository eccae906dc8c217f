package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.Reservation;
import dev.lomicontrol.ledger.ReserveRequest;
import dev.lomicontrol.ledger.RetryEpoch;
import dev.lomicontrol.ledger.Target;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.json.JsonMapper;

/** {@code ledger status | operations | reconcile | export | purge | check} on the broker's real ledger. */
class LedgerCommandsTests extends ConsoleTestSupport {

    @Autowired
    Ledger ledger;

    @Test
    void statusShowsCountsAgainstCapsIntegrityAndWriterHealth() {
        assertThat(ok("ledger status"))
                .contains(
                        "receipts:",
                        " / 4096",
                        "retry epochs:",
                        "by state:",
                        "outcome_unknown=",
                        "expired:",
                        "unreconciled:",
                        "last export:",
                        "integrity:",
                        "writer:       healthy");
    }

    @Test
    void operationsAreListedByStateAndLimit() {
        OperationId id = outcomeUnknown("list");

        assertThat(ok("ledger operations --state outcome_unknown --limit 1000"))
                .contains(id.value(), "outcome_unknown", "lomi_files_mutate");
        assertThat(ok("ledger operations --state succeeded")).contains("no operations in state succeeded");
        assertThat(fails("ledger operations --state sideways", 2))
                .contains("unknown state 'sideways'", "outcome_unknown");
        assertThat(fails("ledger operations --limit 0", 2)).contains("--limit must be 1-1000");
    }

    @Test
    void reconcileRecordsTheFindingWithoutChangingTheState() {
        OperationId id = outcomeUnknown("reconcile");

        assertThat(ok("ledger reconcile " + id + " --resolution succeeded --note \"checked the file: it was written\""))
                .contains("recorded for " + id, "succeeded", "state stays outcome_unknown");
        assertThat(ok("ledger operations --state outcome_unknown --limit 1000"))
                .contains("succeeded: checked the file: it was written");
        assertThat(fails("ledger reconcile " + id + " --resolution failed --note again", 1))
                .contains("already reconciled");
        assertThat(fails("ledger reconcile " + id + " --resolution maybe --note x", 2))
                .contains("unknown state 'maybe'");
        assertThat(fails("ledger reconcile " + "f".repeat(40) + " --resolution failed --note x", 1))
                .contains("TARGET_NOT_FOUND");
    }

    @Test
    void exportWritesAPrivateBackupRelativeToTheConsolesCwdAndNeverOverwrites() throws Exception {
        assertThat(ok("ledger export backup.sqlite3"))
                .contains("exported", cwd.resolve("backup.sqlite3").toString(), "sha256");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cwd.resolve("backup.sqlite3"))))
                .isEqualTo("rw-------");
        assertThat(fails("ledger export backup.sqlite3", 1)).contains("must not exist");
        assertThat(ok("ledger status")).contains("last export:  " + cwd.resolve("backup.sqlite3"));
    }

    @Test
    void purgeNeedsExpiredConfirmAndAnExportAndDeletesOnlyRowsTheExportHoldsAsTheyAreNow() {
        OperationId id = outcomeUnknown("purge");
        OperationId later = outcomeUnknown("reconciled-after-the-export");
        ok("ledger reconcile " + id + " --resolution failed --note 'nothing happened'");

        assertThat(fails("ledger purge --confirm", 2)).contains("needs --expired");
        assertThat(fails("ledger purge --expired", 1)).contains("repeat with --confirm");
        assertThat(fails("ledger purge --expired --before yesterday --confirm", 2))
                .contains("ISO-8601");
        ok("ledger export before-purge.sqlite3");
        ok("ledger reconcile " + later + " --resolution failed --note 'checked after the export'");
        outcomeUnknown("moves-history-on");
        // other methods of this class share the ledger and may have left reconciled receipts too (random method order):
        // the ids decide
        assertThat(ok("ledger purge --expired --confirm"))
                .containsPattern("purged [1-9][0-9]* operations")
                .contains("kept 1 purgeable receipts that changed since the last export: export again and purge again");
        assertThat(ok("ledger operations --state outcome_unknown --limit 1000"))
                .doesNotContain(id.value())
                .contains(later.value());

        ok("ledger export fresh.sqlite3");
        assertThat(ok("ledger purge --expired --confirm")).contains("purged 1 operations");
        assertThat(ok("ledger operations --state outcome_unknown --limit 1000")).doesNotContain(later.value());
    }

    @Test
    void checkReportsAFreshIntegrityVerdict() {
        assertThat(ok("ledger check")).isEqualTo("integrity: ok\n");
    }

    /** A dispatched operation whose session was lost: outcome_unknown, as after a crash or revocation. */
    private OperationId outcomeUnknown(String key) {
        SecureRandom random = new SecureRandom();
        SessionId session = SessionId.random(random);
        RetryEpoch epoch = ledger.issueEpoch(session);
        Reservation reservation = ledger.reserve(new ReserveRequest(
                session,
                epoch.id(),
                new ProjectId("prj-console"),
                new ToolName("lomi_files_mutate"),
                new RequestKey(key + "-" + System.nanoTime()),
                JsonMapper.builder().build().readTree("{\"path\":\"a.txt\"}"),
                new Target("ws-1", "file:a.txt", "", "rev-1")));
        Operation operation = ((Reservation.Reserved) reservation).operation();
        ledger.begin(operation.id());
        ledger.settleLost(session, "test: the session went away");
        return operation.id();
    }
}
