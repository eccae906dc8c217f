package dev.lomicontrol.proof.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The short crash suite for CI: a real broker SIGKILLed at seeded random moments while the real
 * helper and a scripted client create files and append lines through a terminal, restarted on the
 * same data directory each round. No effect twice, no acknowledged operation lost, nothing left
 * unsettled, and the ledger never claims what the disk contradicts. Rounds {@code
 * -Dlomi.crash.broker.rounds} (here 5 unless set; {@code bench/crash.sh} runs 200), seed {@code
 * -Dlomi.crash.broker.seed}, kill window {@code -Dlomi.crash.broker.max-kill-delay-ms} (800).
 */
class BrokerCrashSuiteTests {

    static final int CI_ROUNDS = 5;

    @TempDir
    Path temp;

    @Test
    void aSigkilledBrokerNeverRepeatsAnEffectNorLosesAnAcknowledgedOperation() throws Exception {
        CrashSuite.Settings settings = new CrashSuite.Settings(
                Integer.getInteger("lomi.crash.broker.rounds", CI_ROUNDS),
                Long.getLong("lomi.crash.broker.seed", System.nanoTime()),
                Integer.getInteger("lomi.crash.broker.max-kill-delay-ms", 800),
                temp);
        holds(settings);
    }

    /**
     * Issue 20: the same promises while calls wait ({@code waitMs}) — every work item and every
     * poll is sent with a 5 s wait, so the broker is SIGKILLed while calls are parked in it. A wait
     * never re-sends: the client still sees each effect at most once and no acknowledged receipt lost.
     */
    @Test
    void waitingCallsInFlightWhenTheBrokerIsKilledNeverRepeatAnEffect() throws Exception {
        CrashSuite.Settings settings = new CrashSuite.Settings(
                Integer.getInteger("lomi.crash.broker.wait-rounds", 3),
                Long.getLong("lomi.crash.broker.seed", System.nanoTime()),
                Integer.getInteger("lomi.crash.broker.max-kill-delay-ms", 800),
                temp,
                5_000);
        holds(settings);
    }

    private static void holds(CrashSuite.Settings settings) throws Exception {
        System.err.println("broker crash suite: seed " + settings.seed() + ", rounds " + settings.rounds() + ", waitMs "
                + settings.waitMs());

        CrashSuite.Report report = new CrashSuite(settings).run();

        System.err.println(report.line());
        assertThat(report.verdict().violations()).as(report.line()).isEmpty();
        assertThat(report.kills()).as("every round killed the broker").isEqualTo(settings.rounds());
        assertThat(report.exitCodes()).as("every kill was SIGKILL").containsOnly(137);
        assertThat(report.verdict().maxEffectsPerKey()).as("effects per key").isLessThanOrEqualTo(1);
        assertThat(report.verdict().maxReceiptsPerKey()).as("receipts per key").isLessThanOrEqualTo(1);
        assertThat(report.verdict().acknowledgedMissing())
                .as("acknowledged operations missing after restart")
                .isZero();
        assertThat(report.verdict().unsettledRows())
                .as("rows left queued/running after restart")
                .isZero();
        assertThat(report.verdict().acknowledged())
                .as("the client got work acknowledged at all")
                .isPositive();
        assertThat(report.purge()).as("purges in the mix (issue 19)").contains("all in the export");
        assertThat(report.ledgerCheck()).as("ledger check after the purge").contains("integrity: ok");
    }
}
