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
        assertThat(fails("ledger purge --confirm", ConsoleResult.USAGE)).contains("needs --expired");
        assertThat(fails("ledger purge --expired", ConsoleResult.REFUSED)).contains("repeat with --confirm");
        assertThat(fails("ledger purge --expired --before yesterday --confirm", ConsoleResult.USAGE))
                .contains("ISO-8601");
        assertThat(ledger.maintenance().status().receipts()).isEqualTo(receipts);
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertThat(fails("ledger reconcile " + "0".repeat(40) + " --note x", ConsoleResult.USAGE))
                .contains("needs --resolution");
        assertThat(fails("ledger operations --limit many", ConsoleResult.USAGE)).contains("'many' is not a valid");
        assertThat(fails("ledger operations --state sideways", ConsoleResult.USAGE))
                .contains("unknown state 'sideways'");
        assertThat(fails("ledger reconcile " + "f".repeat(40) + " --resolution failed --note x", ConsoleResult.REFUSED))
                .contains("TARGET_NOT_FOUND");
    }
}
