package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.ledger.Ledger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Slice test of the ledger group ({@code ledger status|operations|reconcile|export|purge|check}) on a real, fresh store: no broker runs. */
class LedgerCommandsSliceTests extends ConsoleSliceSupport {

    @Autowired
    Ledger ledger;

    @Test
    void theGroupIsRegisteredWithHelpForEachCommand() {
        assertGroupHelp(
                "Ledger",
                "ledger status",
                "ledger operations",
                "ledger reconcile",
                "ledger export",
                "ledger purge",
                "ledger check");
        assertThat(ok("help ledger purge")).contains("--confirm");
    }

    @Test
    void aFreshStoreReportsNoReceiptsAndChecksOk() {
        // this class owns its data directory, so the count is exact whatever ran before
        assertThat(ok("ledger status")).containsPattern("receipts: +0 / 4096");
        assertThat(ok("ledger status --json")).startsWith("{");
        assertThat(ok("ledger check")).contains("ok");
    }

    @Test
    void purgeIsRefusedWithoutConfirmAndDeletesNothing() {
        long receipts = ledger.maintenance().status().receipts();
        assertUsage("ledger purge --confirm", "needs --expired");
        assertRefused("ledger purge --expired", "repeat with --confirm");
        assertUsage("ledger purge --expired --before yesterday --confirm", "ISO-8601");
        assertThat(ledger.maintenance().status().receipts()).isEqualTo(receipts);
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertUsage("ledger reconcile " + "0".repeat(40) + " --note x", "needs --resolution");
        assertUsage("ledger operations --limit many", "'many' is not a valid");
        assertUsage("ledger operations --state sideways", "unknown state 'sideways'");
        assertRefused("ledger reconcile " + "f".repeat(40) + " --resolution failed --note x", "TARGET_NOT_FOUND");
    }
}
