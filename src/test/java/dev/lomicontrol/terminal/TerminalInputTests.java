package dev.lomicontrol.terminal;

import static dev.lomicontrol.terminal.TerminalRunTests.assertRefused;
import static dev.lomicontrol.terminal.TerminalTesting.awaitPrompt;
import static dev.lomicontrol.terminal.TerminalTesting.lease;
import static dev.lomicontrol.terminal.TerminalTesting.ready;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Ordered input: sequence numbers, idempotent repeats, conflicts, expiry and payload rules. */
class TerminalInputTests extends TerminalEngineTest {

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aRepeatedSendReturnsTheStoredAckAndWritesNothing() throws Exception {
        Terminal terminal = ready(terminals, dir);
        assertThat(terminal.nextInputSequence()).isEqualTo(1);

        InputAck first = terminal.input(lease(terminal), 1, bytes("echo once-"));
        InputAck again = terminal.input(lease(terminal), 1, bytes("echo once-"));
        terminal.input(lease(terminal), 2, bytes("only\r"));

        assertThat(first).isEqualTo(new InputAck(1, InputAck.DISPATCHED, false, 2));
        assertThat(again).isEqualTo(new InputAck(1, InputAck.DISPATCHED, true, 2));
        assertThat(terminal.nextInputSequence()).isEqualTo(3);
        awaitPrompt(terminal, PromptState.READY);
        String text = terminal.readText(0, 65536).text().replace("\r", "");
        assertThat(text).contains("\nonce-only\n").doesNotContain("echo once-echo once-");
    }

    @Test
    void aRepeatWithAnotherPayloadConflicts() {
        Terminal terminal = ready(terminals, dir);
        terminal.input(lease(terminal), 1, bytes("a"));

        assertRefused(
                () -> terminal.input(lease(terminal), 1, bytes("b")),
                ErrorCode.IDEMPOTENCY_CONFLICT,
                "different payload");
        assertThat(terminal.nextInputSequence()).isEqualTo(2);
    }

    @Test
    void numbersOtherThanTheNextOneAreOutOfOrder() {
        Terminal terminal = ready(terminals, dir);
        terminal.input(lease(terminal), 1, bytes("a"));
        terminal.input(lease(terminal), 2, bytes("b"));

        assertRefused(
                () -> terminal.input(lease(terminal), 5, bytes("c")),
                ErrorCode.REVISION_CONFLICT,
                "the next inputSequence is 3");
        assertRefused(
                () -> terminal.input(lease(terminal), 0, bytes("c")),
                ErrorCode.REVISION_CONFLICT,
                "the next inputSequence is 3");
        assertRefused(
                () -> terminal.input(lease(terminal), -1, bytes("c")),
                ErrorCode.REVISION_CONFLICT,
                "the next inputSequence is 3");
    }

    @Test
    void repeatsOlderThanTheLast64AcknowledgementsHaveExpired() {
        Terminal terminal = ready(terminals, dir);
        for (int sequence = 1; sequence <= 66; sequence++) {
            terminal.input(lease(terminal), sequence, bytes("x"));
        }

        assertRefused(
                () -> terminal.input(lease(terminal), 2, bytes("x")),
                ErrorCode.CURSOR_EXPIRED,
                "older than the last 64");
        assertThat(terminal.input(lease(terminal), 3, bytes("x")).repeated()).isTrue();
        assertThat(terminal.input(lease(terminal), 66, bytes("x")).repeated()).isTrue();
    }

    @Test
    void payloadsMustBeOneByteTo64KiBWithoutNul() {
        Terminal terminal = ready(terminals, dir);
        String lease = lease(terminal);

        assertRefused(() -> terminal.input(lease, 1, new byte[0]), ErrorCode.INVALID_ARGUMENT, "1..65536");
        assertRefused(() -> terminal.input(lease, 1, new byte[65537]), ErrorCode.INVALID_ARGUMENT, "1..65536");
        assertRefused(() -> terminal.input(lease, 1, new byte[] {'a', 0, 'b'}), ErrorCode.INVALID_ARGUMENT, "NUL");
        assertThat(terminal.nextInputSequence()).isEqualTo(1);
    }

    @Test
    void inputNeedsTheCurrentLease() {
        Terminal terminal = ready(terminals, dir);
        String old = lease(terminal);
        terminal.revokeLease("released");

        assertRefused(() -> terminal.input(old, 1, bytes("a")), ErrorCode.CONTROL_REVOKED, "released");
        assertThat(terminal.nextInputSequence()).isEqualTo(1);
    }

    @Test
    void aLargeInputIsWrittenWhole() throws Exception {
        Terminal terminal = ready(terminals, dir);
        String word = "w".repeat(60_000);

        terminal.input(lease(terminal), 1, bytes("echo " + word.length() + "-$(printf %s " + word + " | wc -c)\r"));

        awaitPrompt(terminal, PromptState.READY);
        CommandRun probe = terminal.run(lease(terminal), "echo probe");
        TerminalTesting.outcome(probe);
        String tail = terminal.readText(Math.max(0, terminal.textEnd() - 4000), 4000)
                .text()
                .replace("\r", "");
        assertThat(tail).contains("\n60000-60000\n");
    }
}
