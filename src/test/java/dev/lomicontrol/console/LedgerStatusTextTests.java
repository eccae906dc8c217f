package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.ledger.LedgerStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The words of {@code ledger status} and {@code status} around the caps (issue 19), pinned on status values. */
class LedgerStatusTextTests {

    static final String SESSION = "0123456789abcdef0123456789abcdef";

    @Test
    void belowEightyPercentThereIsNoWarningAndNoStepList() {
        String text = LedgerStatusText.render(
                status(3276, 10, new LedgerStatus.Reclaim(0, 0, 0, List.of()), false), id -> "?");

        assertThat(text)
                .contains("receipts:     3276 / 4096\n", "purgeable:    0 receipts, 0 retry epochs now")
                .doesNotContain("WARNING", "steps");
        assertThat(LedgerStatusText.summary(status(3276, 10, new LedgerStatus.Reclaim(0, 0, 0, List.of()), false)))
                .doesNotContain("WARNING");
    }

    @Test
    void fromEightyAndNinetyFivePercentLedgerStatusAndStatusWarn() {
        LedgerStatus at80 = status(3277, 10, new LedgerStatus.Reclaim(3000, 5, 0, List.of()), false);
        LedgerStatus at95 = status(10, 3892, new LedgerStatus.Reclaim(0, 3800, 0, List.of()), false);

        assertThat(LedgerStatusText.render(at80, id -> "?"))
                .contains("3277 / 4096  WARNING: 80 % or more of the cap", "steps to free rows");
        assertThat(LedgerStatusText.render(at95, id -> "?"))
                .contains("3892 / 4096  WARNING: 95 % or more of the cap; at the cap new connections'");
        assertThat(LedgerStatusText.summary(at80))
                .contains(
                        "WARNING: 80 % or more of a cap",
                        "'ledger status' lists the steps", "3000 receipts purgeable now");
        assertThat(LedgerStatusText.summary(at95)).contains("WARNING: 95 % or more of a cap");
    }

    @Test
    void atTheCapTheStepsComeInOrderWithTheRowsEachFrees() {
        LedgerStatus.Reclaim reclaim =
                new LedgerStatus.Reclaim(3900, 40, 6, List.of(new LedgerStatus.LiveHolder(SESSION, 190, 2, 1)));
        LedgerStatus full = status(4096, 50, reclaim, false);

        String text = LedgerStatusText.render(full, id -> "client 'claude-code', pid 42");

        assertThat(text).contains("4096 / 4096  AT CAP: new work is refused");
        assertThat(text)
                .containsSubsequence(
                        "steps to free rows, in order:",
                        "1. ledger operations --state outcome_unknown",
                        "ledger reconcile <operationId> --resolution succeeded|failed|cancelled",
                        "frees 6 receipts",
                        "2. session revoke " + SESSION
                                + " --confirm   (client 'claude-code', pid 42) frees 190 receipts and 1 retry epochs",
                        "2 unfinished become outcome_unknown or cancelled",
                        "3. ledger export <file>   (needed: the last export is missing)",
                        "4. ledger purge --expired --confirm   frees 3900 receipts and 40 retry epochs now, plus what the steps above free");
        assertThat(LedgerStatusText.summary(full)).contains("AT CAP: new work is refused");
    }

    @Test
    void withNothingElseInTheWayTheStepsAreExportAndPurge() {
        String text = LedgerStatusText.render(
                status(10, 4096, new LedgerStatus.Reclaim(10, 4090, 0, List.of()), true), id -> "?");

        assertThat(text)
                .contains(
                        "4096 / 4096  AT CAP: new connections' lomi_connect is refused",
                        "1. ledger export <file>   (the last export is current",
                        "2. ledger purge --expired --confirm   frees 10 receipts and 4090 retry epochs now")
                .doesNotContain("3.", "session revoke", "reconcile <operationId>");
    }

    private static LedgerStatus status(long receipts, long epochs, LedgerStatus.Reclaim reclaim, boolean exported) {
        Optional<LedgerStatus.LastExport> export = exported
                ? Optional.of(new LedgerStatus.LastExport("/b.sqlite3", "00", 7, Instant.EPOCH))
                : Optional.empty();
        return new LedgerStatus(
                "/data/control.sqlite3",
                "inst",
                receipts,
                4096,
                epochs,
                4096,
                new LinkedHashMap<>(),
                0,
                0,
                reclaim.awaitingFinding(),
                Optional.empty(),
                export,
                7,
                "ok",
                true,
                1,
                Optional.empty(),
                reclaim);
    }
}
