package dev.lomicontrol.terminal;

import static dev.lomicontrol.terminal.TerminalInputTests.bytes;
import static dev.lomicontrol.terminal.TerminalRunTests.assertRefused;
import static dev.lomicontrol.terminal.TerminalTesting.PATIENCE;
import static dev.lomicontrol.terminal.TerminalTesting.awaitPrompt;
import static dev.lomicontrol.terminal.TerminalTesting.lease;
import static dev.lomicontrol.terminal.TerminalTesting.ready;
import static dev.lomicontrol.terminal.TerminalTesting.runToCompletion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.core.ErrorCode;
import org.junit.jupiter.api.Test;

/**
 * The admin's hold on a terminal's input ({@link HumanHold}): the holder's keys reach the shell,
 * agents' input, runs and interrupts are refused with TARGET_BUSY at the moment of writing, and the
 * agent's lease and input sequence survive the hold.
 */
class TerminalHumanHoldTests extends TerminalEngineTest {

    @Test
    void whileTheAdminHoldsTheInputAnAgentsInputRunAndInterruptAreRefusedAsBusy() throws Exception {
        Terminal terminal = ready(terminals, dir);
        CommandRun sleeping = terminal.run(lease(terminal), "sleep 30");
        await().atMost(PATIENCE).until(sleeping::startedObserved);
        long next = terminal.nextInputSequence();

        try (HumanHold hold = terminal.holdForHuman("console pid 1")) {
            assertThat(terminal.humanHold()).contains(hold);
            assertRefused(
                    () -> terminal.input(lease(terminal), next, bytes("x")), ErrorCode.TARGET_BUSY, "admin holds");
            assertRefused(() -> terminal.interrupt(sleeping, lease(terminal)), ErrorCode.TARGET_BUSY, "detach");
            hold.type(new byte[] {0x03});
            sleeping.outcome().get(PATIENCE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
            awaitPrompt(terminal, PromptState.READY);
            assertRefused(() -> terminal.run(lease(terminal), "echo agent"), ErrorCode.TARGET_BUSY, "admin holds");
        }

        assertThat(terminal.humanHold()).isEmpty();
        assertThat(terminal.nextInputSequence())
                .as("refused input used no sequence number")
                .isEqualTo(next);
        assertThat(runToCompletion(terminal, "echo back-to-the-agent"))
                .as("the agent's same lease works after the hold")
                .isEqualTo(new RunOutcome.Exited(0));
    }

    @Test
    void theHoldersKeysRunACommandInTheShell() throws Exception {
        Terminal terminal = ready(terminals, dir);

        try (HumanHold hold = terminal.holdForHuman("console pid 1")) {
            hold.type(bytes("echo typed-by-$((6*7))\r"));
            await().atMost(PATIENCE)
                    .until(() ->
                            terminal.readText(0, Terminal.MAX_PAGE_BYTES).text().contains("typed-by-42"));
        }
    }

    @Test
    void oneHoldAtATimeAndAReleasedHoldTypesNothing() {
        Terminal terminal = ready(terminals, dir);
        HumanHold first = terminal.holdForHuman("console pid 1");

        assertRefused(() -> terminal.holdForHuman("console pid 2"), ErrorCode.TARGET_BUSY, "already attached");
        first.close();
        first.close();
        assertRefused(() -> first.type(bytes("x")), ErrorCode.CONTROL_REVOKED, "released");
        assertRefused(() -> first.resize(80, 24), ErrorCode.CONTROL_REVOKED, "released");
        try (HumanHold second = terminal.holdForHuman("console pid 2")) {
            assertThat(second.isHeld()).isTrue();
            assertThat(first.isHeld()).isFalse();
            second.resize(91, 27);
            assertThat(terminal.screen().columns()).isEqualTo(91);
            assertThat(terminal.screen().rows()).isEqualTo(27);
        }
    }

    @Test
    void anExitedTerminalCannotBeHeld() throws Exception {
        Terminal terminal = ready(terminals, dir);
        terminal.kill();

        assertRefused(() -> terminal.holdForHuman("console pid 1"), ErrorCode.TARGET_NOT_FOUND, "exited");
    }
}
