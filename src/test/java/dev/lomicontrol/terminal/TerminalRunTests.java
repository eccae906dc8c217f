package dev.lomicontrol.terminal;

import static dev.lomicontrol.terminal.TerminalTesting.awaitPrompt;
import static dev.lomicontrol.terminal.TerminalTesting.commandText;
import static dev.lomicontrol.terminal.TerminalTesting.lease;
import static dev.lomicontrol.terminal.TerminalTesting.outcome;
import static dev.lomicontrol.terminal.TerminalTesting.outputAfterStart;
import static dev.lomicontrol.terminal.TerminalTesting.ready;
import static dev.lomicontrol.terminal.TerminalTesting.runToCompletion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Command runs against real bash in real PTYs: settlement by exit code, interrupts, refusals. */
class TerminalRunTests extends TerminalEngineTest {

    static void assertRefused(ThrowingCallable call, ErrorCode code, String messagePart) {
        assertThatThrownBy(call).isInstanceOfSatisfying(LomiException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.getMessage()).contains(messagePart);
        });
    }

    @Test
    void echoSettlesWithExitZeroAndItsOutputIsReadable() throws Exception {
        Terminal terminal = ready(terminals, dir);

        CommandRun run = terminal.run(lease(terminal), "echo hi");

        assertThat(outcome(run)).isEqualTo(new RunOutcome.Exited(0));
        assertThat(run.startedObserved()).isTrue();
        assertThat(run.completed()).isTrue();
        assertThat(run.exitCode()).hasValue(0);
        assertThat(run.endCursor()).isPresent();
        assertThat(run.endCursor().getAsLong()).isGreaterThan(run.startCursor());
        assertThat(outputAfterStart(terminal, run)).isEqualTo("hi\n");
        assertThat(commandText(terminal, run)).contains("echo hi").endsWith("hi\r\n");
        assertThat(terminal.latest()).containsSame(run);
        assertThat(terminal.command(run.id())).containsSame(run);
        assertThat(run.id()).matches("[0-9a-f]{32}");
    }

    @Test
    void nonZeroExitCodesAreReportedExactly() throws Exception {
        Terminal terminal = ready(terminals, dir);

        assertThat(runToCompletion(terminal, "false")).isEqualTo(new RunOutcome.Exited(1));
        assertThat(runToCompletion(terminal, "(exit 7)")).isEqualTo(new RunOutcome.Exited(7));
        assertThat(runToCompletion(terminal, "true")).isEqualTo(new RunOutcome.Exited(0));
    }

    @Test
    void interruptingASleepWritesOneCtrlCAndSettlesWith130() throws Exception {
        Terminal terminal = ready(terminals, dir);
        CommandRun run = terminal.run(lease(terminal), "sleep 100");
        await().atMost(TerminalTesting.PATIENCE).until(run::startedObserved);
        assertThat(terminal.prompt()).isEqualTo(PromptState.RUNNING);

        long writtenBefore = terminal.bytesWritten();

        terminal.interrupt(run, lease(terminal));

        assertThat(terminal.bytesWritten() - writtenBefore).isEqualTo(1);
        assertThat(outcome(run)).isEqualTo(new RunOutcome.Exited(130));
        assertThat(run.interruptSent()).isTrue();
        // The line discipline echoed the 0x03 it received as "^C".
        String text = commandText(terminal, run);
        assertThat(text.split("\\^C", -1)).hasSize(2);
        assertRefused(() -> terminal.interrupt(run, lease(terminal)), ErrorCode.TARGET_BUSY, "latest");
    }

    @Test
    void anInterruptBeforeTheCommandStartedOrForAnOlderRunIsRefused() throws Exception {
        Terminal terminal = ready(terminals, dir);
        CommandRun first = terminal.run(lease(terminal), "true");
        outcome(first);
        awaitPrompt(terminal, PromptState.READY);
        CommandRun second = terminal.run(lease(terminal), "sleep 100");

        assertRefused(() -> terminal.interrupt(first, lease(terminal)), ErrorCode.TARGET_BUSY, "latest");
        await().atMost(TerminalTesting.PATIENCE).until(second::startedObserved);
        assertRefused(() -> terminal.interrupt(second, "not-the-lease"), ErrorCode.CONTROL_REVOKED, "not-the-lease");
        terminal.interrupt(second, lease(terminal));
        assertThat(outcome(second)).isEqualTo(new RunOutcome.Exited(130));
    }

    @Test
    void runningWithoutTheCurrentLeaseIsRefused() throws Exception {
        Terminal terminal = terminals.start("bash", dir, 80, 24);
        assertRefused(
                () -> terminal.run("nope", "echo hi"), ErrorCode.CONTROL_REVOKED, "the lease nope is no longer valid");
        assertRefused(() -> terminal.run(null, "echo hi"), ErrorCode.CONTROL_REVOKED, "no lease id was given");

        Lease first = terminal.grantLease("agent-1");
        awaitPrompt(terminal, PromptState.READY);
        Lease second = terminal.grantLease("agent-2");
        assertRefused(
                () -> terminal.run(first.id(), "echo hi"),
                ErrorCode.CONTROL_REVOKED,
                "replaced by a new lease for agent-2");

        terminal.revokeLeasesOf("agent-1", "not the holder");
        assertThat(terminal.lease()).contains(second);
        assertThat(terminal.prompt()).isEqualTo(PromptState.READY);
        terminal.revokeLeasesOf("agent-2", "session ended");
        assertThat(terminal.lease()).isEmpty();
        assertThat(terminal.prompt()).isEqualTo(PromptState.UNKNOWN);
        assertRefused(() -> terminal.run(second.id(), "echo hi"), ErrorCode.CONTROL_REVOKED, "session ended");
    }

    @Test
    void aSecondRunWhileOneIsInFlightIsBusy() throws Exception {
        Terminal terminal = ready(terminals, dir);
        CommandRun run = terminal.run(lease(terminal), "sleep 100");

        assertRefused(() -> terminal.run(lease(terminal), "echo again"), ErrorCode.TARGET_BUSY, run.id());
        await().atMost(TerminalTesting.PATIENCE).until(run::startedObserved);
        assertRefused(() -> terminal.run(lease(terminal), "echo again"), ErrorCode.TARGET_BUSY, "in flight");
        terminal.interrupt(run, lease(terminal));
        outcome(run);
    }

    @Test
    void typedInputMakesThePromptNotReadyUntilTheNextCommandBoundary() throws Exception {
        Terminal terminal = ready(terminals, dir);

        terminal.input(lease(terminal), 1, "echo typed".getBytes(StandardCharsets.UTF_8));

        assertThat(terminal.prompt()).isEqualTo(PromptState.EDITING);
        assertRefused(() -> terminal.run(lease(terminal), "echo hi"), ErrorCode.PROMPT_STATE_UNKNOWN, "editing");
        terminal.input(lease(terminal), 2, "\r".getBytes(StandardCharsets.UTF_8));
        awaitPrompt(terminal, PromptState.READY);
        assertThat(runToCompletion(terminal, "echo hi")).isEqualTo(new RunOutcome.Exited(0));
    }

    @Test
    void aPromptThatAppearedBeforeTheLeaseBecomesReadyWhenTheLeaseIsGranted() throws Exception {
        Terminal terminal = terminals.start("bash", dir, 80, 24);
        await().atMost(TerminalTesting.PATIENCE)
                .until(() -> terminal.textEnd() > 0
                        && terminal.readText(0, 65536).text().contains("#"));
        assertThat(terminal.prompt()).isEqualTo(PromptState.UNKNOWN);

        terminal.grantLease("late");

        awaitPrompt(terminal, PromptState.READY);
    }

    @Test
    void aPromptWithoutACommandStartCompletesNothingAndLeavesTheTerminalUsable() throws Exception {
        Terminal terminal = ready(terminals, dir);

        // bash runs nothing for a comment: no OSC 133 C, only the next prompt's D.
        CommandRun comment = terminal.run(lease(terminal), "# only a comment");

        assertThat(outcome(comment))
                .isEqualTo(new RunOutcome.Lost("the shell showed a new prompt without starting the command"));
        assertThat(comment.startedObserved()).isFalse();
        assertThat(comment.completed()).isFalse();
        assertThat(comment.exitCode()).isEmpty();
        awaitPrompt(terminal, PromptState.READY);
        assertThat(runToCompletion(terminal, "echo next")).isEqualTo(new RunOutcome.Exited(0));
    }

    @Test
    void badCommandTextIsRefused() {
        Terminal terminal = ready(terminals, dir);
        String lease = lease(terminal);

        assertRefused(() -> terminal.run(lease, ""), ErrorCode.INVALID_ARGUMENT, "empty");
        assertRefused(() -> terminal.run(lease, "   "), ErrorCode.INVALID_ARGUMENT, "empty");
        assertRefused(() -> terminal.run(lease, "echo a\necho b"), ErrorCode.INVALID_ARGUMENT, "one line");
        assertRefused(() -> terminal.run(lease, "echo \u001b[201~"), ErrorCode.INVALID_ARGUMENT, "control");
        assertRefused(() -> terminal.run(lease, "echo " + "€".repeat(6000)), ErrorCode.INVALID_ARGUMENT, "bytes");
        assertRefused(() -> terminal.run(lease, "echo \ud800"), ErrorCode.INVALID_ARGUMENT, "Unicode");
        assertThat(terminal.latest()).isEmpty();
    }

    @Test
    void revokingTheLeaseMidRunLosesTheRunButKeepsObservingIt() throws Exception {
        Terminal terminal = ready(terminals, dir);
        CommandRun run = terminal.run(lease(terminal), "sleep 100");
        await().atMost(TerminalTesting.PATIENCE).until(run::startedObserved);

        terminal.revokeLease("taken over by the admin");

        assertThat(outcome(run)).isEqualTo(new RunOutcome.Lost("the lease was revoked: taken over by the admin"));
        Lease next = terminal.grantLease("successor");
        assertRefused(() -> terminal.run(next.id(), "echo hi"), ErrorCode.TARGET_BUSY, "running");
        terminal.interrupt(run, next.id());
        await().atMost(TerminalTesting.PATIENCE).until(run::completed);
        assertThat(run.exitCode()).hasValue(130);
        assertThat(outcome(run)).isInstanceOf(RunOutcome.Lost.class);
        awaitPrompt(terminal, PromptState.READY);
    }

    @Test
    void theShellsExitEndsTheLeaseLosesTheRunAndKeepsTheOutputReadable() throws Exception {
        Terminal terminal = ready(terminals, dir);
        String lease = lease(terminal);
        AtomicInteger exits = new AtomicInteger();
        terminal.addExitListener(exits::incrementAndGet);
        runToCompletion(terminal, "echo before-exit");

        CommandRun run = terminal.run(lease, "exit 3");

        assertThat(outcome(run)).isEqualTo(new RunOutcome.Lost("the shell exited with code 3"));
        await().atMost(TerminalTesting.PATIENCE).until(() -> !terminal.isAlive());
        assertThat(terminal.exitCode()).hasValue(3);
        assertThat(terminal.lease()).isEmpty();
        assertThat(terminal.prompt()).isEqualTo(PromptState.UNKNOWN);
        await().atMost(TerminalTesting.PATIENCE).until(() -> exits.get() == 1);
        terminal.addExitListener(exits::incrementAndGet);
        assertThat(exits).hasValue(2);
        assertThat(terminal.readText(0, 65536).text()).contains("before-exit");
        assertRefused(() -> terminal.run(lease, "echo hi"), ErrorCode.CONTROL_REVOKED, "the shell exited");
        assertRefused(() -> terminal.input(lease, 1, new byte[] {'x'}), ErrorCode.CONTROL_REVOKED, "the shell exited");
        assertRefused(() -> terminal.grantLease("late"), ErrorCode.CONTROL_REVOKED, "exited");
    }
}
